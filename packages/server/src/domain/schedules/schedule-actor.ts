import { errors } from '../../errors.js';
import { findApiTokenById } from '../../storage/identity/api-tokens-store.js';
import { findUserById } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import { userPrincipal } from '../identity/user-view.js';
import type { Services } from '../services.js';

const TOKEN_PREFIX = 'token:';

/**
 * Who a due schedule runs as: its creator, read again when it runs (docs/schedules.md), so a
 * role changed, a user deactivated or deleted, or an API token revoked or expired since it was
 * planned is refused as the creator would be now (403, and the schedule fails with the reason).
 */
export async function scheduleActor(svc: Services, createdBy: string | null): Promise<Principal> {
  if (createdBy === null) throw errors.forbidden('The schedule has no creator to run as');
  if (createdBy.startsWith(TOKEN_PREFIX)) {
    const token = await findApiTokenById(svc.database, createdBy.slice(TOKEN_PREFIX.length));
    if (!token) throw errors.forbidden('The API token that created the schedule was revoked');
    if (token.expiresAt !== null && token.expiresAt <= svc.now().toISOString()) {
      throw errors.forbidden('The API token that created the schedule has expired');
    }
    return { kind: 'token', id: token.id, role: 'api', permissions: new Set(token.permissions), name: token.name };
  }
  const user = await findUserById(svc.database, createdBy);
  if (!user) throw errors.forbidden('The user who created the schedule no longer exists');
  if (!user.active) throw errors.forbidden('The user who created the schedule is deactivated');
  return userPrincipal(user);
}

/** The creator as the audit log names it when it could not be loaded. */
export function recordedCreator(createdBy: string | null): Principal | null {
  if (createdBy === null) return null;
  const token = createdBy.startsWith(TOKEN_PREFIX);
  return {
    kind: token ? 'token' : 'user',
    id: token ? createdBy.slice(TOKEN_PREFIX.length) : createdBy,
    role: null,
    permissions: new Set<string>(),
  };
}
