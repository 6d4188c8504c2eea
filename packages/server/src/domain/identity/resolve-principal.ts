import { errors } from '../../errors.js';
import { findApiTokenByHash, touchApiToken } from '../../storage/identity/api-tokens-store.js';
import { findSessionPrincipal } from '../../storage/identity/sessions-store.js';
import { ANONYMOUS, type Principal } from '../access/principal.js';
import { previewPermissions } from '../access/policy.js';
import type { Services } from '../services.js';
import { verifyAccessToken } from './access-tokens.js';
import { isOAuthAccessToken } from '../oauth2/oauth-access-token.js';
import { oauthPrincipal } from '../oauth2/oauth-principal.js';
import { isPreviewToken, verifyPreviewToken } from './preview-tokens.js';
import {
  API_TOKEN_PREFIX,
  MFA_TOKEN_PREFIX,
  OAUTH_REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_PREFIX,
  SETUP_TOKEN_PREFIX,
  sha256Hex,
} from './secrets.js';
import { userPrincipal } from './user-view.js';

/** lastUsedAt is written at most this often per token, so busy tokens do not turn reads into writes. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The principal a bearer credential stands for (the HTTP layer reads it from `Authorization`,
 * `http/bearer.ts`). None: anonymous. A credential that is not valid is a 401 everywhere, so
 * clients learn to refresh.
 */
export async function resolvePrincipal(svc: Services, credential: string | undefined): Promise<Principal> {
  return credential === undefined ? ANONYMOUS : principalFromBearer(svc, credential);
}

export async function principalFromBearer(svc: Services, credential: string): Promise<Principal> {
  if (credential.startsWith(API_TOKEN_PREFIX)) return apiTokenPrincipal(svc, credential);
  if (credential.startsWith(REFRESH_TOKEN_PREFIX) || credential.startsWith(OAUTH_REFRESH_TOKEN_PREFIX)) {
    throw errors.unauthorized('A refresh token is not an access token; exchange it at POST /auth/refresh or /auth/token');
  }
  if (credential.startsWith(MFA_TOKEN_PREFIX) || credential.startsWith(SETUP_TOKEN_PREFIX)) {
    throw errors.unauthorized('An MFA or setup token is not an access token; finish the login at /auth/mfa/…');
  }
  if (isOAuthAccessToken(credential)) return oauthPrincipal(svc, credential);
  if (isPreviewToken(credential)) return previewPrincipal(svc, credential);
  const now = svc.now();
  const claims = await verifyAccessToken(svc.jwtKey, svc.config.security.issuer, credential, now, svc.config.security.accessTokenTtlMs);
  // The session row is the truth: revoked sessions and deactivated users stop at once, not at expiry.
  const session = await findSessionPrincipal(svc.database, claims.sid);
  if (!session || session.userId !== claims.sub) throw errors.unauthorized('Session not found');
  if (session.revokedAt !== null) throw errors.unauthorized('Session revoked');
  if (!session.active) throw errors.unauthorized('Account deactivated');
  return { ...userPrincipal({ ...session, id: session.userId }), sessionId: session.sessionId };
}

async function apiTokenPrincipal(svc: Services, credential: string): Promise<Principal> {
  const hash = sha256Hex(credential);
  let token = svc.apiTokenCache.get(hash);
  if (!token) {
    token = await findApiTokenByHash(svc.database, hash);
    if (!token) throw errors.unauthorized('Invalid API token');
    svc.apiTokenCache.set(hash, token);
  }
  const now = svc.now();
  if (token.expiresAt !== null && token.expiresAt <= now.toISOString()) throw errors.unauthorized('API token expired');
  if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) > TOUCH_INTERVAL_MS) {
    token.lastUsedAt = now.toISOString();
    await touchApiToken(svc.database, token.id, token.lastUsedAt);
  }
  return { kind: 'token', id: token.id, role: 'api', permissions: new Set(token.permissions), name: token.name };
}

/**
 * A preview token (docs/preview.md): read permission on the types it names that still exist, and
 * nothing else, so every other route refuses it through the policy. It is checked by its signature
 * and expiry alone: it lives `documents.previewTokenTtl` at most, and no revocation list is kept.
 */
async function previewPrincipal(svc: Services, credential: string): Promise<Principal> {
  const claims = await verifyPreviewToken(
    svc.jwtKey,
    svc.config.security.issuer,
    credential,
    svc.now(),
    svc.config.documents.previewTokenTtlMs,
  );
  const types = claims.types.filter((t) => svc.schemas.get(t) !== undefined);
  return { kind: 'preview', id: claims.sub, role: null, permissions: previewPermissions(types) };
}
