import { CompiledQuery } from 'kysely';
import type { Conn } from '../connection.js';
import type { StoredDocument } from './document-rows.js';
import type { SideRows } from './document-writes.js';
import { SEARCH_CONFIG } from '../postgres/postgres-dialect.js';

/** One document of a bulk insert with what it stores beside its row. */
export interface BulkDocument {
  doc: StoredDocument;
  side: SideRows;
}

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
 */
export async function bulkInsertDocuments(conn: Conn, batch: readonly BulkDocument[]): Promise<boolean> {
  if (batch.length === 0) return true;
  const refs = batch.flatMap(({ doc, side }) => side.refs.map((r) => ({ sourceId: doc.id, targetId: r.targetId, path: r.path })));
  const media = batch.flatMap(({ doc, side }) => side.media.map((r) => ({ sourceId: doc.id, targetId: r.targetId, path: r.path })));
  const run = (text: string, params: unknown[]) => conn.db.executeQuery(CompiledQuery.raw(text, params));
  // The statements read their JSON parameter with the jsonb functions where the database has them.
  const statements = conn.dialect.jsonColumnType === 'jsonb' ? POSTGRES : SQLITE;
  try {
    if (statements === POSTGRES) {
      // jsonb_to_recordset reads `data` as jsonb: the stored value is the object, as encodeData's text cast to jsonb.
      const rows = batch.map(({ doc, side }) => ({ ...row(doc), data: doc.data, search: side.searchText }));
      await run(POSTGRES.documents, [JSON.stringify(rows)]);
    } else {
      // `data` travels as the dialect's encoded text, so the stored text is byte for byte the one a create stores.
      const rows = batch.map(({ doc, side }) => ({ ...row(doc), data: conn.dialect.encodeData(doc.data), search: side.searchText }));
      const json = JSON.stringify(rows);
      await run(SQLITE.documents, [json]);
      await run(SQLITE.search, [json]);
    }
    if (refs.length > 0) await run(statements.refs, [JSON.stringify(refs)]);
    if (media.length > 0) await run(statements.media, [JSON.stringify(media)]);
    return true;
  } catch (err) {
    if (conn.dialect.isUniqueViolation(err)) return false;
    throw err;
  }
}

const row = (doc: StoredDocument) => ({
  id: doc.id,
  type: doc.type,
  status: doc.status,
  rev: doc.rev,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
  created_by: doc.createdBy,
  updated_by: doc.updatedBy,
});

const COLUMNS = 'id, type, status, rev, created_at, updated_at, created_by, updated_by, data';

/** Inserts the JSON list (the one parameter) of {sourceId, targetId, path} as `table` rows. */
const postgresSideRows = (table: string, targetColumn: string) => `
insert into ${table} (source_id, ${targetColumn}, path)
select r->>'sourceId', r->>'targetId', r->>'path' from jsonb_array_elements($1::jsonb) r`;
const sqliteSideRows = (table: string, targetColumn: string) => `
insert into ${table} (source_id, ${targetColumn}, path)
select value ->> '$.sourceId', value ->> '$.targetId', value ->> '$.path' from json_each(?)`;

const POSTGRES = {
  // The search column as `searchColumns` computes it for one row.
  documents: `
insert into documents (${COLUMNS}, search)
select ${COLUMNS}, to_tsvector('${SEARCH_CONFIG}', search)
from jsonb_to_recordset($1::jsonb) as r(id text, type text, status text, rev integer, created_at text, updated_at text,
  created_by text, updated_by text, data jsonb, search text)`,
  refs: postgresSideRows('document_refs', 'target_id'),
  media: postgresSideRows('document_media', 'media_id'),
};

const SQLITE = {
  documents: `
insert into documents (${COLUMNS})
select value ->> '$.id', value ->> '$.type', value ->> '$.status', value ->> '$.rev', value ->> '$.created_at',
  value ->> '$.updated_at', value ->> '$.created_by', value ->> '$.updated_by', value ->> '$.data'
from json_each(?)`,
  // What `writeSearchText` writes for one row: the FTS5 row keyed by the document's `seq`.
  search: `
insert into documents_fts (rowid, body)
select d.seq, j.value ->> '$.search' from json_each(?) j join documents d on d.id = j.value ->> '$.id'`,
  refs: sqliteSideRows('document_refs', 'target_id'),
  media: sqliteSideRows('document_media', 'media_id'),
};
