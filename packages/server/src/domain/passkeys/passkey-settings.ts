import type { PasskeyConfig } from '../../config/types.js';
import { errors } from '../../errors.js';
import type { Principal } from '../access/principal.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Services } from '../services.js';

/** `GET /auth/passkey/status`: public, so the studio knows whether to offer passkeys. */
export function passkeyStatus(svc: Services): { enabled: boolean; rpId: string | null; rpName: string | null } {
  const cfg = svc.config.security.passkey;
  return { enabled: Boolean(cfg?.enabled), rpId: cfg?.rpId || null, rpName: cfg?.rpName || null };
}

/** Every other passkey operation answers 501 `NOT_IMPLEMENTED` while passkeys are not enabled. */
export function requirePasskeys(svc: Services): PasskeyConfig {
  const cfg = svc.config.security.passkey;
  if (!cfg?.enabled) throw errors.notImplemented('Passkeys are not enabled on this instance (security.passkey)');
  return cfg;
}

/** Passkeys belong to users: a signed-in session is required, an API token is refused. */
export function requireSessionUser(actor: Principal): string {
  requireAuthenticated(actor);
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only signed-in users have passkeys');
  return actor.id;
}
