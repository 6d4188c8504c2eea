import type { Conn } from '../connection.js';
import { SEARCH_CONFIG } from '../postgres/postgres-dialect.js';
import { bulkDocumentsJson, insertBulkSideRows, runBulkStatement, type BulkDocument } from './bulk-document.js';
import { DOCUMENT_COLUMNS } from './document-rows.js';

/**
 * The bulk insert on PostgreSQL (bulk-insert-documents.ts): the rows with their search column
 * read from the JSON list with `jsonb_to_recordset`, then the side rows.
 */
export async function postgresBulkInsertDocuments(conn: Conn, batch: readonly BulkDocument[]): Promise<void> {
  // jsonb_to_recordset reads `data` as jsonb: the stored value is the object, as encodeData's text cast to jsonb.
  const documents = bulkDocumentsJson(batch, (data) => data);
  await runBulkStatement(conn, DOCUMENTS, documents);
  await insertBulkSideRows(conn, batch, SIDE_ROWS);
}

const COLUMNS = DOCUMENT_COLUMNS.join(', ');

// The search column as `searchColumns` computes it for one row.
const DOCUMENTS = `
insert into documents (${COLUMNS}, search)
select ${COLUMNS}, to_tsvector('${SEARCH_CONFIG}', search)
from jsonb_to_recordset($1::jsonb) as r(id text, type text, status text, rev integer, created_at text, updated_at text,
  created_by text, updated_by text, data jsonb, search text)`;

/** Inserts the JSON list (the one parameter) of {sourceId, targetId, path} as `table` rows. */
const sideRows = (table: string, targetColumn: string) => `
insert into ${table} (source_id, ${targetColumn}, path)
select r->>'sourceId', r->>'targetId', r->>'path' from jsonb_array_elements($1::jsonb) r`;

const SIDE_ROWS = { refs: sideRows('document_refs', 'target_id'), media: sideRows('document_media', 'media_id') };
