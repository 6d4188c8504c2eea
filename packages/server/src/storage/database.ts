import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import type { DatabaseConfig } from '../config/types.js';
import { DATABASE_DEFAULTS } from '../config/database-section.js';
import type { Tables } from './tables.js';
import type { Dialect } from './dialect.js';
import { sqliteDialect } from './sqlite/sqlite-dialect.js';
import { postgresDialect } from './postgres/postgres-dialect.js';
import { sqliteKyselyDialect } from './sqlite/sqlite-driver.js';
import { openPostgresPool, type PoolStats } from './postgres/postgres-pool.js';
import { WriteBatcher } from './sqlite/write-batcher.js';
import { SqliteReadWorker } from './sqlite/sqlite-read-worker.js';
import { RESTART_LOG_PAGES, SqliteMaintenance } from './sqlite/sqlite-maintenance.js';
import { LogRestart } from './sqlite/log-restart.js';
import { sqliteSnapshot } from './sqlite/sqlite-snapshot.js';
import { registerSqliteFunctions } from './sqlite/sqlite-functions.js';
import type { Conn } from './connection.js';

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Group commit for the one SQLite writer connection; PostgreSQL runs transactions side by side instead. */
  batcher?: WriteBatcher;
  /** SQLite: the worker thread for reads that may be slow (see `readRows`). */
  slowReads?: SqliteReadWorker;
  /** Which engine runs, for operators (metrics' `vellum_build_info`); code decides by `dialect` capabilities. */
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL: the pool's connections now (for metrics). */
  poolStats?: () => PoolStats;
  /**
   * Runs `fn` on a read-only view of the database as it is now, which later commits do not
   * change while `fn` runs, and which holds no lock a writer waits for (`vellum backup`).
   */
  snapshot<T>(fn: (conn: Conn) => Promise<T>): Promise<T>;
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

/**
 * The page cache of each connection that only reads (the reader here, the read worker's): 1 MB
 * instead of SQLite's 2 MB. The pages they read stay in the operating system's cache anyway; a
 * connection's own cache is kept once filled and counts in the server's RSS
 * (docs/decisions/memory.md).
 */
const READ_CACHE_KIB = -1024;

function openSqlite(path: string, busyTimeoutMs: number): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const writer = new BetterSqlite3(path);
  writer.pragma('journal_mode = WAL');
  // A write that finds another connection holding the lock waits up to busyTimeoutMs, then
  // answers 503; it waits in the driver, on timers, never in SQLite's busy handler, which would
  // sleep on the event loop (sqlite-driver.ts).
  writer.pragma('busy_timeout = 0');
  writer.pragma('foreign_keys = ON');
  // WAL + NORMAL stays consistent after a crash; it can only lose the last transactions on power loss.
  writer.pragma('synchronous = NORMAL');
  // A log started over is cut back to four times the length at which it restarts (a burst left it
  // longer); cut back to that length itself, the file would shrink and grow again at every restart.
  writer.pragma(`journal_size_limit = ${4 * RESTART_LOG_PAGES * 4096}`);
  registerSqliteFunctions(writer);
  // Reads outside a transaction go to a second connection, so they never wait for the write
  // batcher's open transaction (sqlite-driver.ts). An in-memory database cannot be shared.
  const reader = path === ':memory:' ? undefined : new BetterSqlite3(path);
  if (reader) {
    reader.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    // A write routed here by mistake fails instead of running beside the writer's lock.
    reader.pragma('query_only = ON');
    reader.pragma(`cache_size = ${READ_CACHE_KIB}`);
    registerSqliteFunctions(reader);
  }
  const logRestart = reader ? new LogRestart() : undefined;
  const db = new Kysely<Tables>({ dialect: sqliteKyselyDialect(writer, reader, busyTimeoutMs, logRestart) });
  // Reads that may be slow run on a thread of their own (read-rows.ts), with a third connection;
  // checkpoints and search-index merges run on that thread too, not inside a request's COMMIT.
  const slowReads = path === ':memory:' ? undefined : new SqliteReadWorker(path, busyTimeoutMs, READ_CACHE_KIB);
  let maintenance: SqliteMaintenance | undefined;
  if (slowReads) {
    maintenance = new SqliteMaintenance(
      slowReads.worker,
      path,
      () => {
        writer.pragma('wal_autocheckpoint = 1000');
        try {
          writer.exec("insert into documents_fts (documents_fts, rank) values ('automerge', 4)");
        } catch {
          // No search table (yet): its default, merging in COMMITs, is what it will have.
        }
      },
      () => logRestart?.request(() => maintenance?.copyLog() ?? Promise.resolve()),
    );
    writer.pragma('wal_autocheckpoint = 0');
  }
  const close = async () => {
    // The upkeep's last checkpoint first: closing the read worker ends the thread they share.
    await maintenance?.close();
    await slowReads?.close();
    await db.destroy();
  };
  // An in-memory database has no second connection to read a snapshot on: its one connection serves.
  const snapshot = <T>(fn: (conn: Conn) => Promise<T>) =>
    path === ':memory:' ? fn({ db, dialect: sqliteDialect }) : sqliteSnapshot(path, busyTimeoutMs, fn);
  return { db, dialect: sqliteDialect, engine: 'sqlite', batcher: new WriteBatcher(db, sqliteDialect), slowReads, snapshot, close };
}

async function openPostgres(config: DatabaseConfig): Promise<Database> {
  // Loaded only when used: a SQLite instance does not carry the PostgreSQL driver in memory.
  const { default: pg } = await import('pg');
  const { pool, stats } = openPostgresPool(pg, config);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  // REPEATABLE READ: every statement of the transaction sees the snapshot taken by its first one.
  const snapshot = <T>(fn: (conn: Conn) => Promise<T>) =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => fn({ db: trx, dialect: postgresDialect }));
  return { db, dialect: postgresDialect, engine: 'postgres', poolStats: stats, snapshot, close: () => db.destroy() };
}
