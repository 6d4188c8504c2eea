import type BetterSqlite3 from 'better-sqlite3';
import { databaseUnavailable, isSqliteBusy } from './database-unavailable.js';

const MAX_STATEMENTS = 1000;

/**
 * The prepared statements of one better-sqlite3 connection, kept by SQL text. Kysely prepares
 * every query anew; preparing costs more than running a small indexed query. Queries are
 * parameterised, so the set of texts stays small.
 */
export class SqliteStatements {
  private readonly cache = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly connection: BetterSqlite3.Database) {}

  prepare(sqlText: string): BetterSqlite3.Statement {
    let stmt = this.cache.get(sqlText);
    if (!stmt) {
      stmt = sqliteGuard(() => this.connection.prepare(sqlText));
      if (this.cache.size >= MAX_STATEMENTS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(sqlText, stmt);
    }
    return stmt;
  }
}

/**
 * Runs one better-sqlite3 call; SQLITE_BUSY / SQLITE_LOCKED (another process held the lock past
 * `busy_timeout`) become the 503 of `databaseUnavailable` where they arise.
 */
export function sqliteGuard<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw isSqliteBusy(err) ? databaseUnavailable(err, 'The database is busy; try again shortly') : err;
  }
}
