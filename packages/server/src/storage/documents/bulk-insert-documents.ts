import type { Conn } from '../connection.js';
import { writeUnlessTaken } from '../write-unless-taken.js';
import type { BulkDocument } from './bulk-document.js';
import { postgresBulkInsertDocuments } from './postgres-bulk-insert-documents.js';
import { sqliteBulkInsertDocuments } from './sqlite-bulk-insert-documents.js';

export type { BulkDocument };

/**
 * Inserts many new documents with their references, media uses and search text, in a few
 * set-based statements (each takes the whole batch as one JSON parameter, so the SQL text is the
 * same for every batch). Call it inside a transaction (`inTransaction`): the batch is written
 * whole or not at all.
 *
 * The rows are what `insertDocument` (document-writes.ts) and `insertDocumentChecked`
 * (guarded-writes.ts) store for one document: the same columns, `data` encoded by the
 * dialect, the first revision being the row itself, the search text where the dialect keeps it
 * (its `searchColumns` / `writeSearchText`: the tsvector column, or the FTS5 table keyed by
 * `seq`). Nothing is checked here: references, media and unique values are the caller's, except
 * that a unique index (id, slug, unique field) still refuses a taken value. Then the answer is
 * false and, on PostgreSQL, the transaction is aborted: the caller must throw to roll it back.
 *
 * The statements are the engine's: `postgres-bulk-insert-documents.ts`, `sqlite-bulk-insert-documents.ts`.
 */
export async function bulkInsertDocuments(conn: Conn, batch: readonly BulkDocument[]): Promise<boolean> {
  if (batch.length === 0) return true;
  // The statements read their JSON parameter with the jsonb functions where the database has them.
  const insert = conn.dialect.jsonColumnType === 'jsonb' ? postgresBulkInsertDocuments : sqliteBulkInsertDocuments;
  return (await writeUnlessTaken(conn, () => insert(conn, batch))).written;
}
