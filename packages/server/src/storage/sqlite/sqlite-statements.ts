import type BetterSqlite3 from 'better-sqlite3';
import { databaseUnavailable, isSqliteBusy } from '../database-unavailable.js';

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
    throw guarded(err);
  }
}

const guarded = (err: unknown) => (isSqliteBusy(err) ? databaseUnavailable(err, 'The database is busy; try again shortly') : err);

/** The longest single wait between two tries for the write lock. */
const MAX_LOCK_WAIT_MS = 8;

/**
 * Runs a statement that takes the write lock (a BEGIN IMMEDIATE, or one write on its own). While
 * another connection holds the lock (the maintenance thread's merge step, another process) it
 * tries again on timers, 1 ms first, for up to `busyTimeoutMs`, then throws the 503 as
 * `sqliteGuard` does. SQLite's own busy handler would wait too, but asleep on the calling thread:
 * the event loop, and every request, would wait with it. The writer's `busy_timeout` is 0.
 */
export async function whenUnlocked<T>(run: () => T, busyTimeoutMs: number): Promise<T> {
  const deadline = Date.now() + busyTimeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, MAX_LOCK_WAIT_MS)) {
    try {
      return run();
    } catch (err) {
      const left = deadline - Date.now();
      if (!isSqliteBusy(err) || left <= 0) throw guarded(err);
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}
