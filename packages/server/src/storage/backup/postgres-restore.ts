import { CompiledQuery, sql } from 'kysely';
import { quoted, SEARCH_TEXT_KEY, SEARCHED_TABLES, type RestoreStatements } from './restore-statements.js';

/**
 * PostgreSQL: `json_populate_record` turns each element of the JSON array into a row of the
 * table's own type (JSON values into jsonb, numbers into bigint), and OVERRIDING SYSTEM VALUE
 * keeps the documents' `seq`, an identity column
 * (https://www.postgresql.org/docs/current/sql-insert.html). A searched table's `search` vector
 * is made in the same statement from the row's search text, with the text search configuration
 * `searchConfig`: one write per row, not an insert and then an update.
 */
export function postgresRestore(searchConfig: string): RestoreStatements {
  if (!/^[a-z_]+$/.test(searchConfig)) throw new Error(`unsafe text search configuration: ${searchConfig}`);
  return {
    async insertRows(db, table, columns, _jsonColumns, json) {
      const t = quoted(table);
      const searched = SEARCHED_TABLES.includes(table);
      const targets = [...columns.map(quoted), ...(searched ? ['search'] : [])].join(', ');
      const values = [
        ...columns.map((c) => `r.${quoted(c)}`),
        ...(searched ? [`to_tsvector('${searchConfig}', j ->> '${SEARCH_TEXT_KEY}')`] : []),
      ].join(', ');
      const text = `insert into ${t} (${targets}) overriding system value
        select ${values} from json_array_elements($1::json) j cross join lateral json_populate_record(null::${t}, j) r`;
      await db.executeQuery(CompiledQuery.raw(text, [json]));
    },
    async finish(db) {
      await sql`select setval(pg_get_serial_sequence('documents', 'seq'), coalesce(max(seq), 0) + 1, false) from documents`.execute(db);
    },
  };
}
