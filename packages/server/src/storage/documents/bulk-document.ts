import { CompiledQuery } from 'kysely';
import type { Conn } from '../connection.js';
import { DOCUMENT_COLUMNS, documentRowParams, type StoredDocument } from './document-rows.js';
import type { SideRows } from './document-writes.js';

/** One document of a bulk insert with what it stores beside its row. */
export interface BulkDocument {
  doc: StoredDocument;
  side: SideRows;
}

/**
 * The batch as the JSON parameter of an engine's documents statement: per document its row keyed
 * by column (DOCUMENT_COLUMNS, `data` as `encode` gives it) and its search text as `search`.
 */
export function bulkDocumentsJson(batch: readonly BulkDocument[], encode: (data: StoredDocument['data']) => unknown): string {
  return JSON.stringify(
    batch.map(({ doc, side }) => {
      const values = documentRowParams(doc, encode(doc.data));
      return { ...Object.fromEntries(DOCUMENT_COLUMNS.map((column, i) => [column, values[i]])), search: side.searchText };
    }),
  );
}

/**
 * Inserts the batch's references and media uses with an engine's two statements, each reading
 * the JSON list (its one parameter) of {sourceId, targetId, path}; a list left empty is not sent.
 */
export async function insertBulkSideRows(
  conn: Conn,
  batch: readonly BulkDocument[],
  statements: { refs: string; media: string },
): Promise<void> {
  for (const kind of ['refs', 'media'] as const) {
    const rows = batch.flatMap(({ doc, side }) => side[kind].map((r) => ({ sourceId: doc.id, targetId: r.targetId, path: r.path })));
    if (rows.length > 0) await runBulkStatement(conn, statements[kind], JSON.stringify(rows));
  }
}

/** Runs a bulk statement: its one parameter is the batch as JSON, so its text is the same for every batch. */
export async function runBulkStatement(conn: Conn, statement: string, json: string): Promise<void> {
  await conn.db.executeQuery(CompiledQuery.raw(statement, [json]));
}
