import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { spendUserPasswordTokens } from '../../storage/identity/password-tokens-store.js';
import { revokeUserSessions } from '../../storage/identity/sessions-store.js';
import { deleteTrustedDevices } from '../../storage/identity/trusted-devices-store.js';
import { findUserByUsername, updateUser } from '../../storage/identity/users-store.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { insertUser, type NewUser } from './insert-user.js';
import { checkPasswordPolicy, hashPassword } from './passwords.js';

/**
 * Account operations for whoever runs `vellum user …` on the database itself (docs/cli.md,
 * "Users"): holding the database is full trust, so there is no principal to check, but every
 * value passes the same checks as through the API, and the audit log records the change with
 * no actor and `via: 'cli'`.
 */

/** `vellum user create`: the checked insert (422 for a policy violation, 409 for a taken name). */
export async function createUserAsOperator(svc: Services, input: NewUser): Promise<{ id: string; username: string; role: string }> {
  const user = await insertUser(svc, svc.database, input);
  await recordAudit(svc, 'userCreate', { actor: null, target: user.id, details: { via: 'cli', role: user.role } });
  return { id: user.id, username: user.username, role: user.role };
}

/**
 * `vellum user set-password`: a new password ends what the old one opened, as a reset does
 * (docs/api.md, "Password reset and invitations"): every session, every open reset or
 * invitation link, and the trusted devices.
 */
export async function setPasswordAsOperator(svc: Services, username: string, password: string): Promise<void> {
  // 1. The user exists; the password meets the policy.
  const user = await findUserByUsername(svc.database, username);
  if (!user) throw errors.notFound(`No user named ${username}`);
  const problems = checkPasswordPolicy(password, svc.config.security.passwordPolicy);
  if (problems.length > 0) throw errors.validation(problems);
  // 2. Write the hash and end the old password's sessions, links and trusted devices at once.
  const hash = await hashPassword(password, svc.config.security.bcryptRounds);
  await inTransaction(svc.database, async (conn) => {
    const at = svc.now().toISOString();
    await updateUser(conn, user.id, { passwordHash: hash, updatedAt: at });
    await spendUserPasswordTokens(conn, user.id, at);
    await revokeUserSessions(conn, user.id, at);
    await deleteTrustedDevices(conn, user.id);
  });
  // 3. Record it.
  await recordAudit(svc, 'passwordReset', { actor: null, target: user.id, details: { via: 'cli' } });
}
