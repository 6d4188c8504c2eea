import { errors, type ErrorDetail } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { findUserByEmail, findUserById, updateUser } from '../../storage/identity/users-store.js';
import { recordChanges } from '../events/record-changes.js';
import { userEvent } from './user-events.js';
import { writeUnlessTaken } from '../../storage/write-unless-taken.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { checkNewUser } from './insert-user.js';
import { verifyPassword } from './passwords.js';
import { toUserView, type UserView } from './user-view.js';

export interface ProfileInput {
  firstName?: string | null;
  lastName?: string | null;
  email?: string;
  currentPassword?: string;
}

/**
 * `PATCH /auth/me` (docs/api.md, "Self-service profile"): the signed-in user changes their own
 * name and email. A new email re-confirms the user with the current password when they have one
 * (a wrong one is 403 like `POST /auth/change-password`: the session is fine, clients must not
 * refresh), since the email is where password resets and email codes go. Only a user's own
 * session may: API tokens have no user, and an OAuth application acts within its scopes only.
 */
export async function updateProfile(svc: Services, actor: Principal, input: ProfileInput): Promise<UserView> {
  // 1. A user's own session.
  const user = await findUserById(svc.database, profileOwnerId(actor));
  if (!user) throw errors.unauthorized('Session not found');
  // 2. What changes: a name given, an email other than the current one (emails are kept lower case).
  const email = input.email !== undefined && input.email.toLowerCase() !== user.email ? input.email : undefined;
  const changed = [
    ...(input.firstName !== undefined && input.firstName !== user.firstName ? ['firstName'] : []),
    ...(input.lastName !== undefined && input.lastName !== user.lastName ? ['lastName'] : []),
    ...(email !== undefined ? ['email'] : []),
  ];
  if (changed.length === 0) return toUserView(user);
  // 3. A new email: a valid address, confirmed with the current password, not another user's.
  if (email !== undefined) {
    const details: ErrorDetail[] = checkNewUser(svc, { username: user.username, email, role: user.role }).filter(
      (d) => d.field === 'email',
    );
    if (user.passwordHash !== null && !input.currentPassword)
      details.push({ field: 'currentPassword', message: 'is required to change the email' });
    if (details.length > 0) throw errors.validation(details);
    const { bcryptRounds } = svc.config.security;
    if (user.passwordHash !== null && !(await verifyPassword(input.currentPassword!, user.passwordHash, bcryptRounds)))
      throw errors.forbidden('The current password is wrong');
    if (await findUserByEmail(svc.database, email)) throw emailTaken();
  }
  // 4. Write; a concurrent user creation can take the email between the check and this write.
  const changes = { firstName: input.firstName, lastName: input.lastName, email, updatedAt: svc.now().toISOString() };
  //    The change and its `user.updated` event commit together.
  const after = await inTransaction(svc.database, async (conn) => {
    const write = await writeUnlessTaken(conn, () => updateUser(conn, user.id, changes));
    if (!write.written) throw emailTaken();
    const row = (await findUserById(conn, user.id))!;
    await recordChanges(svc, conn, [userEvent('user.updated', row, changes.updatedAt)]);
    return row;
  });
  await recordAudit(svc, 'userUpdate', { actor, target: user.id, details: { fields: changed } });
  return toUserView(after);
}

const emailTaken = () => errors.conflict('A user with this email exists', [{ field: 'email', message: 'is taken' }]);

/** The user whose profile a caller may change: their own session only (anonymous 401, a token 403). */
export function profileOwnerId(actor: Principal): string {
  requireAuthenticated(actor);
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only a signed-in user changes their own profile');
  return actor.id;
}
