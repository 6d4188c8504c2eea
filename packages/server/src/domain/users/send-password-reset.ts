import type { PasswordResetLink } from '@vellum/client';
import { errors } from '../../errors.js';
import { hasPasswordToken } from '../../storage/identity/password-tokens-store.js';
import { findUserById, type StoredUser } from '../../storage/identity/users-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { sendPasswordLink } from '../identity/password-reset.js';
import type { Services } from '../services.js';
import { requireCanManage } from './user-grants.js';

/**
 * `POST /users/:id/password-reset` (`users:write`, as editing a user): a reset link issued as the
 * self-service one is (docs/api.md, "Password reset and invitations"), mailed to the user, or,
 * without mail, answered to the caller to pass on. The caller could set the password itself
 * (`PUT /users/:id`), so holding the link gives it nothing more; an admin account's link goes only
 * to an admin, as editing it does.
 *
 * A reset link works only for an active account, so: a user who was invited and has not yet
 * accepted (inactive, no password) gets a fresh invitation link instead, the one way to recover a
 * lost invitation; a deactivated user is 409, since the link would not work until an admin
 * activates the account (and sending one must not activate it).
 */
export async function sendPasswordReset(svc: Services, actor: Principal, id: string): Promise<PasswordResetLink> {
  requirePermission(actor, 'users:write');
  const user = await findUserById(svc.database, id);
  if (!user) throw errors.notFound('User not found');
  requireCanManage(actor, user.role);
  let purpose: PasswordResetLink['purpose'] = 'reset';
  if (!user.active) {
    if (!(await invitationPending(svc, user)))
      throw errors.conflict(`${user.username} is deactivated: a reset link works only once the account is activated again`);
    purpose = 'invite';
  }
  const url = await sendPasswordLink(svc, user, purpose);
  await recordAudit(svc, 'passwordResetIssue', { actor, target: user.id, details: { purpose, sent: url === undefined } });
  return url === undefined ? { purpose, sent: true } : { purpose, sent: false, resetUrl: url };
}

/** Invited and not yet accepted: inactive, never given a password, and sent an invitation. */
async function invitationPending(svc: Services, user: StoredUser): Promise<boolean> {
  return !user.active && user.passwordHash === null && (await hasPasswordToken(svc.database, user.id, 'invite'));
}
