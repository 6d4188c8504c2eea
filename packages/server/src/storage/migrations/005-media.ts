import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The media library, and which documents use which media (so a referenced file cannot be deleted
 * by accident and "where is this image used" is one indexed query).
 */
export function media(dialect: Dialect): Migration {
  const json = dialect.jsonColumnType;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('media')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('filename', 'text', (c) => c.notNull().unique())
        .addColumn('original_filename', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('alt', 'text')
        .addColumn('title', 'text')
        // {name: {key, width, height, mimeType, size}}: the stored variant files.
        .addColumn('variants', json as 'text', (c) => c.notNull())
        .addColumn('placeholder', 'text')
        .addColumn('dominant_color', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('media_created').on('media').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('media_sha256').on('media').column('sha256').execute();

      await db.schema
        .createTable('document_media')
        .addColumn('source_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('media_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_media_pk', ['source_id', 'path'])
        .execute();
      await db.schema.createIndex('document_media_media').on('document_media').column('media_id').execute();
    },
  };
}
