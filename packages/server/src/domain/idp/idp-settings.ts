import type { IdpConfig } from '../../config/types.js';
import { errors } from '../../errors.js';
import { findIdpLinkOfUser } from '../../storage/identity/idp-store.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';

/** The provider path segment: one provider type is implemented (docs/api.md, "Identity provider"). */
export const PROVIDER = 'idp';

export interface IdpStatus {
  enabled: boolean;
  providers: { id: string; name: string }[];
  linked?: boolean;
}

/** `GET /auth/oauth/status`: public; with a signed-in user, whether that user has linked an account. */
export async function idpStatus(svc: Services, actor: Principal): Promise<IdpStatus> {
  const cfg = svc.config.security.oauth;
  const status: IdpStatus = { enabled: Boolean(cfg), providers: cfg ? [{ id: PROVIDER, name: cfg.name }] : [] };
  if (actor.kind === 'user' && actor.id) status.linked = (await findIdpLinkOfUser(svc.database, actor.id, PROVIDER)) !== undefined;
  return status;
}

/** Every other identity-provider operation answers 501 `NOT_IMPLEMENTED` while `security.oauth` is unset. */
export function requireIdp(svc: Services): IdpConfig {
  const cfg = svc.config.security.oauth;
  if (!cfg) throw errors.notImplemented('No identity provider is configured on this instance (security.oauth)');
  return cfg;
}

/** Links belong to users: a signed-in session is required, an API token is refused. */
export function requireSessionUser(actor: Principal): string {
  requireAuthenticated(actor);
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only signed-in users link identity-provider accounts');
  return actor.id;
}
