import { CompiledQuery, sql } from 'kysely';
import { quoted, type RestoreStatements } from './restore-statements.js';

/**
 * PostgreSQL: `json_populate_recordset` turns the JSON array into rows of the table's own type
 * (JSON values into jsonb, numbers into bigint), and OVERRIDING SYSTEM VALUE keeps the documents'
 * `seq`, an identity column (https://www.postgresql.org/docs/current/sql-insert.html). The search
 * text is made a tsvector with the text search configuration `searchConfig`.
 */
export function postgresRestore(searchConfig: string): RestoreStatements {
  if (!/^[a-z_]+$/.test(searchConfig)) throw new Error(`unsafe text search configuration: ${searchConfig}`);
  return {
    async insertRows(db, table, columns, _jsonColumns, json) {
      const list = columns.map(quoted).join(', ');
      const text = `insert into ${quoted(table)} (${list}) overriding system value select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)`;
      await db.executeQuery(CompiledQuery.raw(text, [json]));
    },
    async writeSearchTexts(db, table, json) {
      const t = quoted(table);
      const text = `update ${t} set search = to_tsvector('${searchConfig}', x.text) from json_to_recordset($1::json) as x(seq bigint, text text) where ${t}.seq = x.seq`;
      await db.executeQuery(CompiledQuery.raw(text, [json]));
    },
    async finish(db) {
      await sql`select setval(pg_get_serial_sequence('documents', 'seq'), coalesce(max(seq), 0) + 1, false) from documents`.execute(db);
    },
  };
}
