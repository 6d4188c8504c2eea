import { CompiledQuery } from 'kysely';
import { quoted, type RestoreStatements } from './restore-statements.js';

/**
 * SQLite: `json_each` walks the JSON array; `->>` gives a column's value as SQL (text, integer,
 * real or null) and `->` a JSON column's value as JSON text, SQL NULL for JSON null
 * (https://www.sqlite.org/json1.html). Search text goes to the FTS5 tables, keyed by `seq`.
 */
export const sqliteRestore: RestoreStatements = {
  async insertRows(db, table, columns, jsonColumns, json) {
    const values = columns.map((c) => (jsonColumns.includes(c) ? `nullif(value -> '$.${c}', 'null')` : `value ->> '$.${c}'`));
    const text = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) select ${values.join(', ')} from json_each(?)`;
    await db.executeQuery(CompiledQuery.raw(text, [json]));
  },
  async writeSearchTexts(db, table, json) {
    const fts = table === 'documents' ? 'documents_fts' : 'document_drafts_fts';
    await db.executeQuery(
      CompiledQuery.raw(`insert into ${fts} (rowid, body) select value ->> '$.seq', value ->> '$.text' from json_each(?)`, [json]),
    );
  },
  // A rowid key continues from the largest one there is.
  finish: async () => undefined,
};
