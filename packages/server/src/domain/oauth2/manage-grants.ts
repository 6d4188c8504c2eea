import { errors } from '../../errors.js';
import { findGrant, listLiveGrants, revokeGrant } from '../../storage/oauth2/oauth-grants-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { findClient } from './clients.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { grantedScopes, splitScope } from './scopes.js';
import { requireSignedInUser } from './signed-in-user.js';

/** One of the user's grants as `GET /auth/grants` lists it (docs/oauth2.md, "Grants"). */
export interface GrantView {
  id: string;
  client: { id: string; name: string };
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** `GET /auth/grants`: the signed-in user's grants that are not revoked, newest first. */
export async function listOwnGrants(svc: Services, actor: Principal): Promise<GrantView[]> {
  requireOAuth2(svc);
  const userId = requireSignedInUser(actor);
  const grants = await listLiveGrants(svc.database, userId);
  return grants.map((g) => ({
    id: g.id,
    // A client removed from the config keeps its id as its name, so the user can still revoke it.
    client: { id: g.clientId, name: findClient(svc, g.clientId)?.name ?? g.clientId },
    // The scopes that give the user rights today (docs/oauth2.md, "Scopes"), not every one approved.
    scopes: grantedScopes(splitScope(g.scope), actor.role ?? '', [...actor.permissions]),
    createdAt: g.createdAt,
    lastUsedAt: g.lastUsedAt,
  }));
}

/**
 * `DELETE /auth/grants/:id`: revokes one of the user's own grants; its refresh tokens and access
 * tokens stop at once. Another user's grant, or one already revoked, is 404.
 */
export async function revokeOwnGrant(svc: Services, actor: Principal, id: string): Promise<void> {
  requireOAuth2(svc);
  const userId = requireSignedInUser(actor);
  const grant = await findGrant(svc.database, id);
  if (!grant || grant.userId !== userId || !(await revokeGrant(svc.database, id, svc.now().toISOString())))
    throw errors.notFound('Grant not found');
  await recordAudit(svc, 'oauthRevoke', { actor, target: userId, details: { clientId: grant.clientId, grantId: id, via: 'grants' } });
}
