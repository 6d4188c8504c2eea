import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { deleteMediaRow, findMedia, findMediaUsers } from '../../storage/media/media-store.js';
import { requireMediaAction } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { MEDIA_CHANGES } from './update-media.js';
import { refuseWhileUsed } from '../shared/refuse-while-used.js';
import { recordChanges } from '../events/record-changes.js';
import { mediaEvent } from './media-events.js';
import { transformKeysOf } from '../../storage/media/media-transforms-store.js';
import { removeFiles } from './remove-files.js';

const MAX_LISTED_USERS = 50;

/**
 * `DELETE /media/:id`: 409 while documents use it, unless `force`. The row goes first (in a
 * transaction); the files after the commit, so a failed delete never leaves a record without
 * its file. A file that cannot be removed then is logged: an orphan file is harmless.
 */
export async function deleteMedia(svc: Services, actor: Principal, input: { id: string; force: boolean }): Promise<void> {
  requireMediaAction(actor, 'delete');
  const removed = await inTransaction(svc.database, async (conn) => {
    const current = await findMedia(conn, input.id);
    if (!current) throw errors.notFound('Media not found');
    if (!input.force) {
      const users = await findMediaUsers(conn, current.id, MAX_LISTED_USERS);
      refuseWhileUsed(users, 'Documents use this media item; remove it from them or delete with force=true', 'used');
    }
    // Read before the row goes: its transform rows go with it.
    const transforms = await transformKeysOf(conn, current.id);
    await deleteMediaRow(conn, current.id);
    await recordChanges(svc, conn, [mediaEvent(svc.config, 'media.deleted', current, svc.now().toISOString())]);
    return { current, transforms };
  });
  svc.changes.bump(MEDIA_CHANGES);
  const keys = [removed.current.filename, ...Object.values(removed.current.variants).map((v) => v.key), ...removed.transforms];
  await removeFiles(svc, keys, 'media: files of a deleted media item could not be removed');
}
