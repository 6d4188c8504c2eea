import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Pending drafts of published documents (docs/drafts.md): at most one per document, beside its
 * main version, never a second document. Its references and media live in tables of their own,
 * so every statement on the main version's rows stays as it was (no request that does not use
 * drafts pays for them), and the delete checks read both. Revisions gain `kind`: a draft's saves
 * are numbered by the draft's own `_rev`, so the key becomes (doc_id, kind, rev).
 */
export function documentDrafts(dialect: Dialect): Migration {
  const json = sql.raw(dialect.jsonColumnType);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('document_drafts')
        .addColumn('id', 'text', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
        // The main row's, so a list over main versions and drafts orders and pages them alike.
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        // The main version's `_rev` the draft was made from: publishing an older base is a conflict.
        .addColumn('base_rev', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('document_drafts_type').on('document_drafts').columns(['type', 'seq']).execute();
      // `seq` is the document's, unique among drafts too: the key of a draft's search text.
      await db.schema.createIndex('document_drafts_seq').on('document_drafts').column('seq').unique().execute();
      await dialect.createDraftSearchStorage(db);

      for (const [table, column] of [
        ['document_draft_refs', 'target_id'],
        ['document_draft_media', 'media_id'],
      ] as const) {
        await db.schema
          .createTable(table)
          .addColumn('source_id', 'text', (c) => c.notNull().references('document_drafts.id').onDelete('cascade'))
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn(column, 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['source_id', 'path'])
          .execute();
        await db.schema.createIndex(`${table}_${column}`).on(table).column(column).execute();
      }

      if (dialect.altersPrimaryKey) {
        // PostgreSQL changes a primary key in place.
        await sql`alter table document_revisions add column kind text not null default 'main'`.execute(db);
        await sql`alter table document_revisions drop constraint document_revisions_pk`.execute(db);
        await sql`alter table document_revisions add constraint document_revisions_pk primary key (doc_id, kind, rev)`.execute(db);
        return;
      }
      // SQLite cannot: the table is copied into its new shape.
      await db.schema
        .createTable('document_revisions_kind')
        .addColumn('doc_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('main'))
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addPrimaryKeyConstraint('document_revisions_pk', ['doc_id', 'kind', 'rev'])
        .execute();
      await sql`insert into document_revisions_kind (doc_id, kind, rev, status, data, updated_at, updated_by)
        select doc_id, 'main', rev, status, data, updated_at, updated_by from document_revisions`.execute(db);
      await db.schema.dropTable('document_revisions').execute();
      await db.schema.alterTable('document_revisions_kind').renameTo('document_revisions').execute();
    },
  };
}
