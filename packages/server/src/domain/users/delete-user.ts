import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { countOtherActiveAdmins, deleteUser as deleteRow, findUserById, lockAdmins } from '../../storage/identity/users-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCanManage } from './user-grants.js';
import { recordChanges } from '../events/record-changes.js';
import { userEvent } from '../identity/user-events.js';

/** `DELETE /users/:id`: its sessions go with it (so its tokens stop at once); never the last active admin. */
export async function deleteUser(svc: Services, actor: Principal, id: string): Promise<void> {
  requirePermission(actor, 'users:write');
  await inTransaction(svc.database, async (conn) => {
    await lockAdmins(conn);
    const current = await findUserById(conn, id);
    if (!current) throw errors.notFound('User not found');
    requireCanManage(actor, current.role);
    if (current.role === 'admin' && current.active && (await countOtherActiveAdmins(conn, id)) === 0) {
      throw errors.conflict('This is the last active admin; make another user admin first');
    }
    await deleteRow(conn, id);
    await recordChanges(svc, conn, [userEvent('user.deleted', current, svc.now().toISOString())]);
  });
  await recordAudit(svc, 'userDelete', { actor, target: id });
}
