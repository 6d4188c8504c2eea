import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';
import { errors } from '../../errors.js';
import type { JwtKey } from '../identity/access-tokens.js';
import { checkJwtTimes } from '../identity/jwt-times.js';

/** RFC 9068 §2.1: the media type of a JWT access token, in its short form. */
const TYP = 'at+jwt';
const ALG = 'HS256';

export interface OAuthAccessClaims {
  sub: string;
  clientId: string;
  scope: string;
  /** The grant the token belongs to: revoking the grant stops the token at once. */
  grantId: string;
}

export interface TokenAudience {
  issuer: string;
  /** The API the token is for: `<issuer><basePath>`. */
  audience: string;
}

/** True when the bearer is shaped as an RFC 9068 access token (`typ: at+jwt`), so the OAuth checks apply. */
export function isOAuthAccessToken(credential: string): boolean {
  if (credential.split('.').length !== 3) return false;
  try {
    const typ = decodeProtectedHeader(credential).typ?.toLowerCase();
    return typ === TYP || typ === `application/${TYP}`;
  } catch {
    return false;
  }
}

/** RFC 9068 §2.2: `iss aud sub client_id scope jti iat exp`, plus `gid` (the grant). */
export async function signOAuthAccessToken(key: JwtKey, at: TokenAudience, claims: OAuthAccessClaims, now: Date, ttlMs: number) {
  const iat = Math.floor(now.getTime() / 1000);
  const expiresIn = Math.floor(ttlMs / 1000);
  const token = await new SignJWT({ client_id: claims.clientId, scope: claims.scope, gid: claims.grantId })
    .setProtectedHeader({ alg: ALG, typ: TYP })
    .setIssuer(at.issuer)
    .setAudience(at.audience)
    .setSubject(claims.sub)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + expiresIn)
    .sign(key.cryptoKey);
  return { token, expiresIn };
}

/**
 * RFC 9068 §4: the `typ` header must be `at+jwt`, the algorithm the pinned one, `iss` and `aud`
 * ours, and `exp` in the future; `iat` at most 60 s ahead and `exp - iat` no longer than
 * `lifetimeMs` (`oauth2.accessTokenTtl`; jwt-times.ts). Every failure is 401.
 */
export async function verifyOAuthAccessToken(
  key: JwtKey,
  at: TokenAudience,
  token: string,
  now: Date,
  lifetimeMs: number,
): Promise<OAuthAccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key.cryptoKey, {
      algorithms: [ALG],
      issuer: at.issuer,
      audience: at.audience,
      typ: TYP,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    const { sub, client_id: clientId, scope, gid } = payload;
    if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string' || typeof gid !== 'string')
      throw errors.unauthorized('Invalid token');
    checkJwtTimes(payload, now, lifetimeMs);
    return { sub, clientId, scope, grantId: gid };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.unauthorized('Token expired');
    if (err instanceof joseErrors.JOSEError) throw errors.unauthorized('Invalid token');
    throw err;
  }
}
