import { webcrypto } from 'node:crypto';
import { jwtVerify, errors as joseErrors } from 'jose';
import { errors } from '../../errors.js';
import { checkJwtTimes } from './jwt-times.js';
import { signJwt } from './sign-jwt.js';

export interface AccessClaims {
  sub: string;
  sid: string;
  role: string;
}

const ALG = 'HS256';

/** The HS256 key, imported once: importing it on every verification costs more than the HMAC. */
export interface JwtKey {
  cryptoKey: webcrypto.CryptoKey;
}

export async function importJwtKey(secret: Uint8Array): Promise<JwtKey> {
  const cryptoKey = await webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return { cryptoKey };
}

/**
 * Tokens that verified, by their exact text. Signature and claims of the same bytes under the
 * same key never change, so a busy client's token is checked cryptographically once; its expiry
 * and its session are still checked on every request.
 */
const verified = new Map<string, { key: JwtKey; exp: number; claims: AccessClaims }>();
const MAX_VERIFIED = 10_000;

/** Signs an access token: HS256, claims `sub sid role typ iat exp iss` (docs/api.md, "Authentication"). */
export function signAccessToken(key: JwtKey, issuer: string, claims: AccessClaims, now: Date, ttlMs: number) {
  return signJwt(key, issuer, { typ: 'JWT', sub: claims.sub, claims: { sid: claims.sid, role: claims.role, typ: 'access' } }, now, ttlMs);
}

/**
 * Verifies an access token. The algorithm is pinned (RFC 8725 §3.1: `alg: none` and key
 * confusion are refused), as are the issuer and `typ: 'access'` so MFA, setup or other tokens
 * signed with the same key never pass as access tokens. `iat` may not be more than 60 s ahead, nor
 * `exp - iat` longer than `lifetimeMs` (`security.tokenExpiry`; jwt-times.ts).
 */
export async function verifyAccessToken(key: JwtKey, issuer: string, token: string, now: Date, lifetimeMs: number): Promise<AccessClaims> {
  const known = verified.get(token);
  // A token whose signature and claims passed before needs only its expiry checked again.
  if (known && known.key === key && known.exp * 1000 > now.getTime()) return known.claims;
  try {
    const { payload } = await jwtVerify(token, key.cryptoKey, { algorithms: [ALG], issuer, currentDate: now });
    if (
      payload.typ !== 'access' ||
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.role !== 'string' ||
      typeof payload.exp !== 'number'
    ) {
      throw errors.unauthorized('Invalid token');
    }
    checkJwtTimes(payload, now, lifetimeMs);
    const claims = { sub: payload.sub, sid: payload.sid, role: payload.role };
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    verified.set(token, { key, exp: payload.exp, claims });
    return claims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.unauthorized('Token expired');
    if (err instanceof joseErrors.JOSEError) throw errors.unauthorized('Invalid token');
    throw err;
  }
}
