import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { errors } from '../../errors.js';

export interface AccessClaims {
  sub: string;
  sid: string;
  role: string;
}

const ALG = 'HS256';

/** Signs an access token: HS256, claims `sub sid role typ iat exp iss` (DESIGN.md §5). */
export async function signAccessToken(key: Uint8Array, issuer: string, claims: AccessClaims, now: Date, ttlMs: number) {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + Math.floor(ttlMs / 1000);
  const token = await new SignJWT({ sid: claims.sid, role: claims.role, typ: 'access' })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/**
 * Verifies an access token. The algorithm is pinned (RFC 8725 §3.1: `alg: none` and key
 * confusion are refused), as are the issuer and `typ: 'access'` so MFA, setup or other tokens
 * signed with the same key never pass as access tokens.
 */
export async function verifyAccessToken(key: Uint8Array, issuer: string, token: string, now: Date): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG], issuer, currentDate: now });
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.role !== 'string') {
      throw errors.unauthorized('Invalid token');
    }
    return { sub: payload.sub, sid: payload.sid, role: payload.role };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.unauthorized('Token expired');
    if (err instanceof joseErrors.JOSEError) throw errors.unauthorized('Invalid token');
    throw err;
  }
}
