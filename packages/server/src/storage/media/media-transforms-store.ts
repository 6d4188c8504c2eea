import type { Conn } from '../connection.js';

/**
 * The transforms rendered for each media item (docs/media.md, "Image transforms"): recorded once
 * their file is stored, so a delete, or a new focal point, knows which files to remove.
 */

/** Records a stored transform; one already recorded (another request or node rendered it too) is kept. */
export async function recordTransform(conn: Conn, t: { key: string; mediaId: string; createdAt: string }): Promise<void> {
  await conn.db
    .insertInto('media_transforms')
    .values({ key: t.key, media_id: t.mediaId, created_at: t.createdAt })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** The transform keys of one media item. */
export async function transformKeysOf(conn: Conn, mediaId: string): Promise<string[]> {
  const rows = await conn.db.selectFrom('media_transforms').select('key').where('media_id', '=', mediaId).execute();
  return rows.map((r) => r.key);
}

/** Forgets the transforms of one media item (their files are removed after the commit). */
export async function forgetTransforms(conn: Conn, mediaId: string): Promise<void> {
  await conn.db.deleteFrom('media_transforms').where('media_id', '=', mediaId).execute();
}
