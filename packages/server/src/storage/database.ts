import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteStatement } from 'kysely';
import type { DatabaseConfig } from '../config/types.js';
import { DATABASE_DEFAULTS } from '../config/database-section.js';
import type { Tables } from './tables.js';
import type { Dialect } from './dialects/dialect.js';
import { sqliteDialect } from './dialects/sqlite.js';
import { postgresDialect } from './dialects/postgres.js';
import { databaseUnavailable, isSqliteBusy } from './database-unavailable.js';
import { openPostgresPool } from './postgres-pool.js';
import { WriteBatcher } from './write-batcher.js';
import { SqliteReadWorker } from './sqlite-read-worker.js';

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Group commit for the one SQLite connection; PostgreSQL runs transactions side by side instead. */
  batcher?: WriteBatcher;
  /** SQLite: the worker thread for reads that may be slow (see `readRows`). */
  slowReads?: SqliteReadWorker;
  close(): Promise<void>;
}

/** `sqlite:./x.db` is relative to cwd; `sqlite:/abs` and `sqlite:///abs` are absolute (docs/api.md, "Configuration"). */
export function sqlitePath(url: string, cwd = process.cwd()): string {
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === ':memory:') return path;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Opens the database named by the URL: embedded SQLite or a PostgreSQL pool. Settings left out
 * take the defaults of the `database` config section.
 */
export async function openDatabase(url: string, settings: Partial<Omit<DatabaseConfig, 'url'>> = {}): Promise<Database> {
  const config = { ...DATABASE_DEFAULTS, ...settings, url };
  return url.startsWith('sqlite:') ? openSqlite(sqlitePath(url), config.busyTimeoutMs) : openPostgres(config);
}

function openSqlite(path: string, busyTimeoutMs: number): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  // A write that finds another process holding the lock waits this long, then answers 503.
  raw.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  raw.pragma('foreign_keys = ON');
  // WAL + NORMAL stays consistent after a crash; it can only lose the last transactions on power loss.
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  // A second connection cannot share an in-memory database: there, every read stays on this one.
  const slowReads = path === ':memory:' ? undefined : new SqliteReadWorker(path, busyTimeoutMs);
  const close = async () => {
    await slowReads?.close();
    await db.destroy();
  };
  return { db, dialect: sqliteDialect, batcher: new WriteBatcher(db, sqliteDialect), slowReads, close };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed query, so
 * statements are kept by SQL text. Queries are parameterised, so the set of texts stays small.
 * SQLITE_BUSY / SQLITE_LOCKED (another process held the lock past `busy_timeout`) become the 503
 * of `databaseUnavailable` where they arise.
 */
function withStatementCache(raw: BetterSqlite3.Database) {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => raw.close(),
    prepare: (sqlText: string) => {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = busyGuarded(sqliteGuard(() => raw.prepare(sqlText)));
        if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}

function sqliteGuard<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw isSqliteBusy(err) ? databaseUnavailable(err, 'The database is busy; try again shortly') : err;
  }
}

function busyGuarded(stmt: BetterSqlite3.Statement): SqliteStatement {
  return {
    reader: stmt.reader,
    all: (params) => sqliteGuard(() => stmt.all(params)),
    run: (params) => sqliteGuard(() => stmt.run(params)),
    *iterate(params) {
      const rows = sqliteGuard(() => stmt.iterate(params));
      while (true) {
        const next = sqliteGuard(() => rows.next());
        if (next.done) return;
        yield next.value;
      }
    },
  };
}

async function openPostgres(config: DatabaseConfig): Promise<Database> {
  // Loaded only when used: a SQLite instance does not carry the PostgreSQL driver in memory.
  const { default: pg } = await import('pg');
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: openPostgresPool(pg, config) }) });
  return { db, dialect: postgresDialect, close: () => db.destroy() };
}
