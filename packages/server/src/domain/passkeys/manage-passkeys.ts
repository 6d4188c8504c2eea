import { errors } from '../../errors.js';
import { deletePasskey, listUserPasskeys, renamePasskey } from '../../storage/identity/passkeys-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { requirePasskeys, requireSessionUser } from './passkey-settings.js';
import { toPasskeyView, type PasskeyView } from './passkey-view.js';

// A user sees and changes only their own credentials; another user's credential id is 404, as
// if it did not exist (docs/api.md, "Passkeys").

export async function listPasskeys(svc: Services, actor: Principal): Promise<PasskeyView[]> {
  requirePasskeys(svc);
  const userId = requireSessionUser(actor);
  return (await listUserPasskeys(svc.database, userId)).map(toPasskeyView);
}

export async function renameUserPasskey(svc: Services, actor: Principal, id: string, name: string): Promise<PasskeyView> {
  requirePasskeys(svc);
  const userId = requireSessionUser(actor);
  const trimmed = name.trim();
  if (!trimmed) throw errors.validation([{ field: 'name', message: 'must not be blank' }]);
  const renamed = await renamePasskey(svc.database, userId, id, trimmed);
  if (!renamed) throw errors.notFound('Passkey not found');
  return toPasskeyView(renamed);
}

export async function removeUserPasskey(svc: Services, actor: Principal, id: string): Promise<void> {
  requirePasskeys(svc);
  const userId = requireSessionUser(actor);
  if (!(await deletePasskey(svc.database, userId, id))) throw errors.notFound('Passkey not found');
  await recordAudit(svc, 'passkeyRemove', { actor, target: userId, details: { credentialId: id } });
}
