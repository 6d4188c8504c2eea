import type { Kysely, Migration } from 'kysely';

/**
 * Image transforms on request (docs/media.md, "Image transforms"): a focal point on each media
 * record (`fit=cover` crops around it), and the transforms rendered so far, so deleting a media
 * item, or moving its focal point, removes their files too. A transform row goes with its media row.
 */
export function mediaTransforms(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('media').addColumn('focal_x', 'double precision').execute();
      await db.schema.alterTable('media').addColumn('focal_y', 'double precision').execute();
      await db.schema
        .createTable('media_transforms')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('media_transforms_media').on('media_transforms').column('media_id').execute();
    },
  };
}
