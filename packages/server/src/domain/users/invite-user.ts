import { inTransaction } from '../../storage/connection.js';
import { requireMayInvite } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { insertUser } from '../identity/insert-user.js';
import { sendPasswordLink } from '../identity/password-reset.js';
import { toUserView, type InvitedUserView } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import type { CreateUserInput } from './create-user.js';
import { requireCanAssign } from './user-grants.js';
import { runUserHooks } from './user-hooks.js';

/**
 * `POST /users/invite` (`users:invite` or `users:write`): an inactive user without a password,
 * and a mail whose link sets the password and activates the account. Without mail the answer
 * carries the link (`inviteUrl`) instead: the caller may invite, so it may pass the link on.
 */
export async function inviteUser(
  svc: Services,
  actor: Principal,
  input: Omit<CreateUserInput, 'password' | 'active'>,
): Promise<InvitedUserView> {
  requireMayInvite(actor);
  const role = await runUserHooks(svc, { ...input, role: input.role ?? 'viewer' });
  requireCanAssign(svc, actor, role, input.permissions);
  const user = await inTransaction(svc.database, (conn) => insertUser(svc, conn, { ...input, role, active: false }));
  const inviteUrl = await sendPasswordLink(svc, user, 'invite');
  await recordAudit(svc, 'userCreate', { actor, target: user.id, details: { username: user.username, role: user.role, via: 'invite' } });
  return inviteUrl === undefined ? toUserView(user) : { ...toUserView(user), inviteUrl };
}
