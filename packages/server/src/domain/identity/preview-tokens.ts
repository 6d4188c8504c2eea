import { decodeProtectedHeader, jwtVerify, errors as joseErrors } from 'jose';
import { errors } from '../../errors.js';
import type { JwtKey } from './access-tokens.js';
import { checkJwtTimes } from './jwt-times.js';
import { signJwt } from './sign-jwt.js';

/** The `scope` claim that marks a preview token (docs/preview.md, "The token"). */
export const PREVIEW_SCOPE = 'preview';
const ALG = 'HS256';
/** Explicit typing (RFC 8725 §3.11): the header says what the token is, so a bearer is sorted by its small header alone. */
const TYP = 'preview+jwt';

export interface PreviewClaims {
  /** Who issued it: a user id, or `token:<id>` for an API token. */
  sub: string;
  /** The document types the issuer could read when it was issued. */
  types: string[];
}

/** True when the bearer is shaped as a preview token: a JWT whose header says `typ: preview+jwt`. */
export function isPreviewToken(credential: string): boolean {
  if (credential.split('.').length !== 3) return false;
  try {
    return decodeProtectedHeader(credential).typ?.toLowerCase() === TYP;
  } catch {
    return false;
  }
}

/**
 * Signs a preview token with the instance's key, as access tokens are: HS256, header
 * `typ: preview+jwt`, claims `sub scope types iat exp iss`. It has no `typ: 'access'`, so `verifyAccessToken` never takes it
 * for a session.
 */
export function signPreviewToken(key: JwtKey, issuer: string, claims: PreviewClaims, now: Date, ttlMs: number) {
  return signJwt(key, issuer, { typ: TYP, sub: claims.sub, claims: { scope: PREVIEW_SCOPE, types: claims.types } }, now, ttlMs);
}

/**
 * Verifies a preview token: the pinned algorithm, issuer and `typ` (RFC 8725 §3.1), `scope: 'preview'`,
 * a list of type names, and the times every JWT of this server meets (jwt-times.ts) against
 * `documents.previewTokenTtl`. Every failure is 401, as for any other bad bearer.
 */
export async function verifyPreviewToken(
  key: JwtKey,
  issuer: string,
  token: string,
  now: Date,
  lifetimeMs: number,
): Promise<PreviewClaims> {
  try {
    const { payload } = await jwtVerify(token, key.cryptoKey, { algorithms: [ALG], issuer, currentDate: now, typ: TYP });
    const types = payload.types;
    if (
      payload.scope !== PREVIEW_SCOPE ||
      typeof payload.sub !== 'string' ||
      !Array.isArray(types) ||
      !types.every((t): t is string => typeof t === 'string')
    ) {
      throw errors.unauthorized('Invalid token');
    }
    checkJwtTimes(payload, now, lifetimeMs);
    return { sub: payload.sub, types };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.unauthorized('Token expired');
    if (err instanceof joseErrors.JOSEError) throw errors.unauthorized('Invalid token');
    throw err;
  }
}
