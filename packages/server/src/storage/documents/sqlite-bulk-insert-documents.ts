import type { Conn } from '../connection.js';
import { bulkDocumentsJson, insertBulkSideRows, runBulkStatement, type BulkDocument } from './bulk-document.js';
import { DOCUMENT_COLUMNS } from './document-rows.js';

/**
 * The bulk insert on SQLite (bulk-insert-documents.ts): the rows read from the JSON list with
 * `json_each`, then their search text in the FTS5 table, then the side rows.
 */
export async function sqliteBulkInsertDocuments(conn: Conn, batch: readonly BulkDocument[]): Promise<void> {
  // `data` travels as the dialect's encoded text, so the stored text is byte for byte the one a create stores.
  const documents = bulkDocumentsJson(batch, (data) => conn.dialect.encodeData(data));
  await runBulkStatement(conn, DOCUMENTS, documents);
  await runBulkStatement(conn, SEARCH, documents);
  await insertBulkSideRows(conn, batch, SIDE_ROWS);
}

// Each column read from the record bulkDocumentsJson keys by the same names.
const DOCUMENTS = `
insert into documents (${DOCUMENT_COLUMNS.join(', ')})
select ${DOCUMENT_COLUMNS.map((column) => `value ->> '$.${column}'`).join(', ')}
from json_each(?)`;

// What `writeSearchText` writes for one row: the FTS5 row keyed by the document's `seq`. CROSS JOIN
// keeps the JSON list the outer loop (https://www.sqlite.org/optoverview.html#crossjoin): with the
// planner statistics of a nearly empty table it chose to scan `documents` outside and parse the
// whole list once per row, so a batch into a new database cost its size times the table's.
const SEARCH = `
insert into documents_fts (rowid, body)
select d.seq, j.value ->> '$.search' from json_each(?) j cross join documents d on d.id = j.value ->> '$.id'`;

/** Inserts the JSON list (the one parameter) of {sourceId, targetId, path} as `table` rows. */
const sideRows = (table: string, targetColumn: string) => `
insert into ${table} (source_id, ${targetColumn}, path)
select value ->> '$.sourceId', value ->> '$.targetId', value ->> '$.path' from json_each(?)`;

const SIDE_ROWS = { refs: sideRows('document_refs', 'target_id'), media: sideRows('document_media', 'media_id') };
