import { errors } from '../../errors.js';

/** How far ahead of this node's clock a token's `iat` may be: the clocks of a cluster's nodes drift a little. */
export const MAX_IAT_AHEAD_S = 60;

/** True when `iat` is a number at most 60 s ahead of `now`; every JWT the server verifies must pass. */
export function issuedAtAcceptable(iat: unknown, now: Date): boolean {
  return typeof iat === 'number' && Number.isFinite(iat) && iat <= now.getTime() / 1000 + MAX_IAT_AHEAD_S;
}

/**
 * The times of a JWT this server signed, beyond the signature and `exp` that jose checks: `iat`
 * present and at most 60 s ahead of now, and `exp - iat` no longer than the lifetime the server
 * gives such tokens (`security.tokenExpiry`, `oauth2.accessTokenTtl`). Only a holder of the
 * signing key can make a token that fails here, so this is hardening in the spirit of RFC 8725
 * §3.10: a leaked key or a signing bug cannot mint a token that lives for a year (docs/api.md,
 * "Authentication"). Every failure is 401, as for any other bad token.
 */
export function checkJwtTimes(claims: { iat?: unknown; exp?: unknown }, now: Date, lifetimeMs: number): void {
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw errors.unauthorized('Invalid token');
  if (!issuedAtAcceptable(iat, now)) throw errors.unauthorized('Invalid token: issued in the future');
  // Tokens are signed with exp = iat + floor(ttl in seconds): anything longer was not made by this configuration.
  if (exp - iat > Math.floor(lifetimeMs / 1000))
    throw errors.unauthorized('Invalid token: it lives longer than this server issues tokens for');
}
