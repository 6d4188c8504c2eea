import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `document_revisions` now holds earlier versions only: the current one is the document row
 * itself, so a create writes one row less and an update copies the version it replaces. Rows that
 * duplicate a document's current version are removed.
 */
export function revisionsExcludeCurrent(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`delete from document_revisions where exists (
        select 1 from documents d where d.id = document_revisions.doc_id and d.rev = document_revisions.rev)`.execute(db);
    },
  };
}
