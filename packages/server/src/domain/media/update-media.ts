import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { updateMedia as updateRow } from '../../storage/media/media-store.js';
import { requireMediaAction } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { checkMediaText, type MediaText } from './media-text.js';
import { toApiMedia, type ApiMedia } from './media-view.js';
import { recordChanges } from '../events/record-changes.js';
import { mediaEvent } from './media-events.js';

/** `PATCH /media/:id {alt?, title?}`: `null` clears a field; the file itself never changes. */
export async function updateMedia(svc: Services, actor: Principal, id: string, changes: MediaText): Promise<ApiMedia> {
  requireMediaAction(actor, 'edit');
  checkMediaText(changes);
  const at = svc.now().toISOString();
  const updated = await inTransaction(svc.database, async (conn) => {
    const row = await updateRow(conn, id, { ...changes, updatedAt: at });
    if (row) await recordChanges(svc, conn, [mediaEvent(svc.config, 'media.updated', row, at)]);
    return row;
  });
  if (!updated) throw errors.notFound('Media not found');
  // Documents rendered with this media expanded are out of date.
  svc.changes.bump(MEDIA_CHANGES);
  return toApiMedia(svc.config, updated);
}

/** The key media writes bump in the content versions (no schema can be named with a `$`). */
export const MEDIA_CHANGES = '$media';
