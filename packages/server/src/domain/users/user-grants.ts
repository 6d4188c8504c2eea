import { errors } from '../../errors.js';
import { canGrant, isAdmin } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';

/**
 * A caller with `users:write` who is not an admin manages users below itself: it cannot make
 * anyone an admin, nor give permissions it does not hold (else `users:write` would be a path to
 * every right). Admins may do anything.
 */
export function requireCanAssign(
  svc: Services,
  actor: Principal,
  role: string | undefined,
  permissions: readonly string[] | undefined,
): void {
  if (isAdmin(actor)) return;
  if (role === 'admin') throw errors.forbidden('Only an admin can make a user an admin');
  const beyond = (permissions ?? []).filter((p) => !canGrant(actor, p, svc.schemas.names));
  if (beyond.length > 0) throw errors.forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
}

/** Non-admins cannot change or remove an admin account. */
export function requireCanManage(actor: Principal, targetRole: string): void {
  if (targetRole === 'admin' && !isAdmin(actor)) throw errors.forbidden('Only an admin can change an admin account');
}
