import { errors, type ErrorDetail } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { revokeUserSessions } from '../../storage/identity/sessions-store.js';
import {
  countOtherActiveAdmins,
  findUserByEmail,
  findUserById,
  findUserByUsername,
  lockAdmins,
  updateUser as writeUser,
  type UserChanges,
} from '../../storage/identity/users-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { checkNewUser } from '../identity/insert-user.js';
import { hashPassword } from '../identity/passwords.js';
import { toUserView, type UserView } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCanAssign, requireCanManage } from './user-grants.js';
import { recordChanges } from '../events/record-changes.js';
import { userEvent } from '../identity/user-events.js';

export interface UpdateUserInput {
  username?: string;
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: string;
  permissions?: string[];
  active?: boolean;
  password?: string;
}

/**
 * `PUT /users/:id`: updates the fields given (docs/api.md, "Users"). A role change or deactivation
 * revokes the user's sessions at once; a new password does too (with `revokeOnPasswordChange`).
 * The last active admin cannot be demoted or deactivated (409).
 */
export async function updateUser(svc: Services, actor: Principal, id: string, input: UpdateUserInput): Promise<UserView> {
  // 1. Permission; what the caller may assign.
  requirePermission(actor, 'users:write');
  requireCanAssign(svc, actor, input.role, input.permissions);
  const updated = await inTransaction(svc.database, async (conn) => {
    await lockAdmins(conn);
    // 2. The user exists, and the caller may manage it.
    const current = await findUserById(conn, id);
    if (!current) throw errors.notFound('User not found');
    requireCanManage(actor, current.role);
    // 3. The merged record passes the same checks as a new one.
    const next = {
      username: input.username ?? current.username,
      email: input.email ?? current.email,
      role: input.role ?? current.role,
      permissions: input.permissions ?? current.permissions,
      password: input.password,
    };
    const details = checkNewUser(svc, next);
    if (details.length > 0) throw errors.validation(details);
    const taken: ErrorDetail[] = [];
    if (input.username !== undefined && input.username !== current.username && (await findUserByUsername(conn, input.username)))
      taken.push({ field: 'username', message: 'is taken' });
    if (input.email !== undefined && input.email.toLowerCase() !== current.email && (await findUserByEmail(conn, input.email)))
      taken.push({ field: 'email', message: 'is taken' });
    if (taken.length > 0) throw errors.conflict('A user with this username or email exists', taken);
    // 4. Never leave the instance without an active admin.
    const stillAdmin = next.role === 'admin' && (input.active ?? current.active);
    if (current.role === 'admin' && current.active && !stillAdmin && (await countOtherActiveAdmins(conn, id)) === 0) {
      throw errors.conflict('This is the last active admin; make another user admin first');
    }
    // 5. Write, then end sessions that no longer match the account.
    const at = svc.now().toISOString();
    const changes: UserChanges = {
      username: input.username,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      permissions: input.permissions,
      active: input.active,
      updatedAt: at,
      passwordHash: input.password !== undefined ? await hashPassword(input.password, svc.config.security.bcryptRounds) : undefined,
    };
    await writeUser(conn, id, changes);
    const roleChanged = input.role !== undefined && input.role !== current.role;
    const deactivated = input.active === false && current.active;
    const passwordChanged = input.password !== undefined && svc.config.security.session.revokeOnPasswordChange;
    if (roleChanged || deactivated || passwordChanged) await revokeUserSessions(conn, id, at);
    const after = (await findUserById(conn, id))!;
    await recordChanges(svc, conn, [userEvent('user.updated', after, at)]);
    return after;
  });
  await recordAudit(svc, 'userUpdate', { actor, target: id, details: { fields: Object.keys(input).sort() } });
  return toUserView(updated);
}
