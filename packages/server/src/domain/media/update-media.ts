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
import { forgetTransforms, transformKeysOf } from '../../storage/media/media-transforms-store.js';
import { checkFocalPoint, type FocalPoint } from './focal-point.js';
import { removeFiles } from './remove-files.js';

export interface MediaChanges extends MediaText {
  focalPoint?: FocalPoint | null;
}

/**
 * `PATCH /media/:id {alt?, title?, focalPoint?}`: `null` clears a field; the file itself never
 * changes. A new focal point makes the transforms cropped around the old one wrong: their
 * files are removed after the commit and rendered again on request (docs/media.md).
 */
export async function updateMedia(svc: Services, actor: Principal, id: string, changes: MediaChanges): Promise<ApiMedia> {
  requireMediaAction(actor, 'edit');
  checkMediaText(changes);
  if (changes.focalPoint !== undefined) checkFocalPoint(changes.focalPoint);
  const at = svc.now().toISOString();
  let stale: string[] = [];
  const updated = await inTransaction(svc.database, async (conn) => {
    const row = await updateRow(conn, id, { ...changes, updatedAt: at });
    if (!row) return undefined;
    if (changes.focalPoint !== undefined) {
      stale = await transformKeysOf(conn, id);
      await forgetTransforms(conn, id);
    }
    await recordChanges(svc, conn, [mediaEvent(svc.config, 'media.updated', row, at)]);
    return row;
  });
  if (!updated) throw errors.notFound('Media not found');
  // Documents rendered with this media expanded are out of date.
  svc.changes.bump(MEDIA_CHANGES);
  await removeFiles(svc, stale, 'media: transforms cropped around the old focal point could not be removed');
  return toApiMedia(svc.config, updated);
}

/** The key media writes bump in the content versions (no schema can be named with a `$`). */
export const MEDIA_CHANGES = '$media';
