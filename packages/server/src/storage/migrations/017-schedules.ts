import type { Kysely, Migration } from 'kysely';

/**
 * Scheduled publishing (docs/schedules.md): one row per planned publish or unpublish of a
 * document. The runner finds due rows by the (status, at) index and holds a claimed row until
 * `claimed_until`, so exactly one node runs it; a document's schedules go with it.
 */
export function schedules(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('schedules')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('done_at', 'text')
        .addColumn('claimed_until', 'text')
        .execute();
      await db.schema.createIndex('schedules_status_at').on('schedules').columns(['status', 'at']).execute();
      await db.schema.createIndex('schedules_document').on('schedules').columns(['document_id', 'at']).execute();
    },
  };
}
