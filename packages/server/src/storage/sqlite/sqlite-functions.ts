import type BetterSqlite3 from 'better-sqlite3';
import { NATURAL_KEY_FUNCTION, naturalSortKey } from '../natural-sort-key.js';

/**
 * The SQL functions Vellum's queries call on SQLite, registered on each connection that may run
 * them: the writer, the reader and the read worker (whose copy is made from `FUNCTIONS_SOURCE`).
 * PostgreSQL has the same functions from migrations.
 */
export function registerSqliteFunctions(db: BetterSqlite3.Database): void {
  db.function(NATURAL_KEY_FUNCTION, { deterministic: true }, naturalSortKey);
}

/** The same registration as script text, for the read worker's connection `db` (sqlite-read-worker.ts). */
export const FUNCTIONS_SOURCE = `
${naturalSortKey.toString()}
db.function(${JSON.stringify(NATURAL_KEY_FUNCTION)}, { deterministic: true }, ${naturalSortKey.name});
`;
