import { errors } from '../../errors.js';
import { findGrantPrincipal } from '../../storage/oauth2/oauth-grants-store.js';
import type { Principal } from '../access/principal.js';
import { displayName } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { verifyOAuthAccessToken } from './oauth-access-token.js';
import { tokenAudience } from './grant-tokens.js';
import { grantedScopes, scopedPermissions, splitScope } from './scopes.js';

/**
 * The caller behind an OAuth access token (RFC 9068): the user, acting with the token's scopes
 * intersected with the user's own rights, and never with the user's role, so admin-only routes
 * stay closed (docs/oauth2.md, "Scopes"). The grant row is the truth, as the session row is for
 * our own tokens: a revoked grant or a deactivated user stops the token at once.
 */
export async function oauthPrincipal(svc: Services, credential: string): Promise<Principal> {
  if (!svc.config.oauth2.enabled) throw errors.unauthorized('OAuth access tokens are not accepted: the authorization server is off');
  const claims = await verifyOAuthAccessToken(svc.jwtKey, tokenAudience(svc), credential, svc.now(), svc.config.oauth2.accessTokenTtlMs);
  const grant = await findGrantPrincipal(svc.database, claims.grantId);
  if (!grant || grant.userId !== claims.sub || grant.clientId !== claims.clientId) throw errors.unauthorized('Grant not found');
  if (grant.revokedAt !== null) throw errors.unauthorized('Grant revoked');
  if (!grant.active) throw errors.unauthorized('Account deactivated');
  const scopes = splitScope(claims.scope);
  return {
    kind: 'oauth',
    id: grant.userId,
    role: null,
    permissions: scopedPermissions(scopes, grant.role, grant.permissions),
    username: grant.username,
    name: displayName(grant),
    // What the user holds now of the token's scopes: a user demoted since the token was issued no
    // longer sees the scopes that stopped giving rights.
    oauth: { clientId: grant.clientId, grantId: grant.grantId, scopes: grantedScopes(scopes, grant.role, grant.permissions) },
  };
}
