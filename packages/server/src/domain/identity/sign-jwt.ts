import { SignJWT, type JWTPayload } from 'jose';
import type { webcrypto } from 'node:crypto';

/**
 * Signs a token of this server with the instance's key: HS256, the header's `typ`, `sub`, `iss`,
 * `iat` now and `exp` after `ttlMs` (the rules every verified JWT meets: jwt-times.ts). Access and
 * preview tokens differ only in their header `typ` and their own claims.
 */
export async function signJwt(
  /** The instance's key (`JwtKey` of access-tokens.ts). */
  key: { cryptoKey: webcrypto.CryptoKey },
  issuer: string,
  token: { typ: string; sub: string; claims: JWTPayload },
  now: Date,
  ttlMs: number,
): Promise<{ token: string; expiresAt: string }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + Math.floor(ttlMs / 1000);
  const signed = await new SignJWT(token.claims)
    .setProtectedHeader({ alg: 'HS256', typ: token.typ })
    .setSubject(token.sub)
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key.cryptoKey);
  return { token: signed, expiresAt: new Date(exp * 1000).toISOString() };
}
