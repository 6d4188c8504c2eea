import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { revokeUserSessions } from '../../storage/identity/sessions-store.js';
import { deleteTrustedDevices } from '../../storage/identity/trusted-devices-store.js';
import { findUserById, updateUser } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords.js';

/**
 * `POST /auth/change-password`: the current password re-confirms the signed-in user (a wrong one
 * is 403, not 401: the session is fine and clients must not refresh). With
 * `revokeOnPasswordChange` every other session of the user ends at once.
 */
export async function changePassword(
  svc: Services,
  actor: Principal,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const user = await findUserById(svc.database, passwordOwnerId(actor));
  if (!user) throw errors.unauthorized('Session not found');
  const { bcryptRounds, passwordPolicy, session } = svc.config.security;
  if (!(await verifyPassword(input.currentPassword, user.passwordHash, bcryptRounds)))
    throw errors.forbidden('The current password is wrong');
  const problems = checkPasswordPolicy(input.newPassword, passwordPolicy, 'newPassword');
  if (problems.length > 0) throw errors.validation(problems);
  const hash = await hashPassword(input.newPassword, bcryptRounds);
  await inTransaction(svc.database, async (conn) => {
    const at = svc.now().toISOString();
    await updateUser(conn, user.id, { passwordHash: hash, updatedAt: at });
    if (session.revokeOnPasswordChange) await revokeUserSessions(conn, user.id, at, actor.sessionId);
    // A new password ends the trust given to devices under the old one: MFA is asked again (docs/api.md).
    await deleteTrustedDevices(conn, user.id);
  });
  await recordAudit(svc, 'passwordChange', { actor, target: user.id });
}

/** The user whose password a caller may change: their own session only (anonymous 401, a token 403). */
export function passwordOwnerId(actor: Principal): string {
  requireAuthenticated(actor);
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only users have passwords');
  return actor.id;
}
