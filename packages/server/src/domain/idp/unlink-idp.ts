import { errors } from '../../errors.js';
import { deleteIdpLink, findIdpLinkOfUser, userHasPasskey } from '../../storage/identity/idp-store.js';
import { findUserById } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { PROVIDER, requireIdp, requireSessionUser } from './idp-settings.js';

/**
 * `DELETE /auth/oauth/idp/unlink`: detaches the signed-in user's provider account. Refused (409)
 * when the user has no password and no passkey, as nothing would be left to sign in with.
 */
export async function unlinkIdp(svc: Services, actor: Principal): Promise<void> {
  requireIdp(svc);
  const userId = requireSessionUser(actor);
  const link = await findIdpLinkOfUser(svc.database, userId, PROVIDER);
  if (!link) throw errors.notFound('No identity-provider account is linked to this user');
  const user = await findUserById(svc.database, userId);
  if (!user?.passwordHash && !(await userHasPasskey(svc.database, userId)))
    throw errors.conflict('Unlinking would leave this account no way to sign in; set a password or add a passkey first');
  await deleteIdpLink(svc.database, userId, PROVIDER);
  await recordAudit(svc, 'idpUnlink', { actor, target: userId, details: { issuer: link.issuer } });
}
