import { CompiledQuery } from 'kysely';
import { quoted, SEARCH_TEXT_KEY, type RestoreStatements } from './restore-statements.js';

/** The FTS5 table that holds a searched table's text, keyed by the row's `seq`. */
const FTS: Readonly<Record<string, string>> = { documents: 'documents_fts', document_drafts: 'document_drafts_fts' };

/**
 * SQLite: `json_each` walks the JSON array; `->>` gives a column's value as SQL (text, integer,
 * real or null) and `->` a JSON column's value as JSON text, SQL NULL for JSON null
 * (https://www.sqlite.org/json1.html). A searched table's text goes to its FTS5 table, keyed by
 * the `seq` each row brings.
 */
export const sqliteRestore: RestoreStatements = {
  async insertRows(db, table, columns, jsonColumns, json) {
    const values = columns.map((c) => (jsonColumns.includes(c) ? `nullif(value -> '$.${c}', 'null')` : `value ->> '$.${c}'`));
    const text = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) select ${values.join(', ')} from json_each(?)`;
    await db.executeQuery(CompiledQuery.raw(text, [json]));
    const fts = FTS[table];
    if (fts) {
      const search = `insert into ${fts} (rowid, body) select value ->> '$.seq', value ->> '$.${SEARCH_TEXT_KEY}' from json_each(?)
        where value ->> '$.${SEARCH_TEXT_KEY}' is not null`;
      await db.executeQuery(CompiledQuery.raw(search, [json]));
    }
  },
  // A rowid key continues from the largest one there is.
  finish: async () => undefined,
};
