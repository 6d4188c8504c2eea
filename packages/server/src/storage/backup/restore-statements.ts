import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

/** The tables whose rows have search text kept beside them (rebuilt by a restore, never copied). */
export const SEARCHED_TABLES: readonly string[] = ['documents', 'document_drafts'];

/** The key of a row of a searched table that carries its search text into `insertRows` (no column has it). */
export const SEARCH_TEXT_KEY = '__search';

/**
 * What a restore writes the engine's own way (docs/backup.md): set-based inserts from one JSON
 * parameter, with the search text of the searched tables, and what follows the rows. Each
 * engine's dialect carries one.
 */
export interface RestoreStatements {
  /**
   * Inserts the rows in `json` (a JSON array of objects keyed by column) into `table`, keys and
   * identity values as given. `jsonColumns` hold JSON values, the others scalars. Rows of a
   * searched table may carry their search text under SEARCH_TEXT_KEY, indexed with them.
   */
  insertRows(db: Kysely<Tables>, table: string, columns: readonly string[], jsonColumns: readonly string[], json: string): Promise<void>;
  /** Once every row is in: the next document `seq` follows the largest restored one. */
  finish(db: Kysely<Tables>): Promise<void>;
}

/** Column names come from backup-tables.ts, never from a file; quoted all the same (`key` and `at` are keywords). */
export const quoted = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return `"${name}"`;
};
