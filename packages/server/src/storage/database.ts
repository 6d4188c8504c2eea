import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Tables } from './tables.js';
import type { Dialect } from './dialects/dialect.js';
import { sqliteDialect } from './dialects/sqlite.js';
import { postgresDialect } from './dialects/postgres.js';
import { statementName } from './named-statements.js';
import { WriteBatcher } from './write-batcher.js';

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Group commit for the one SQLite connection; PostgreSQL runs transactions side by side instead. */
  batcher?: WriteBatcher;
  close(): Promise<void>;
}

/** `sqlite:./x.db` is relative to cwd; `sqlite:/abs` and `sqlite:///abs` are absolute (docs/api.md, "Configuration"). */
export function sqlitePath(url: string, cwd = process.cwd()): string {
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === ':memory:') return path;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** Opens the database named by the URL: embedded SQLite or a PostgreSQL pool. */
export async function openDatabase(url: string): Promise<Database> {
  if (url.startsWith('sqlite:')) return openSqlite(sqlitePath(url));
  // Loaded only when used: a SQLite instance does not carry the PostgreSQL driver in memory.
  const { default: pg } = await import('pg');
  return openPostgres(pg, url);
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  // WAL + NORMAL stays consistent after a crash; it can only lose the last transactions on power loss.
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  return { db, dialect: sqliteDialect, batcher: new WriteBatcher(db, sqliteDialect), close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed query, so
 * statements are kept by SQL text. Queries are parameterised, so the set of texts stays small.
 */
function withStatementCache(raw: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare: (sqlText: string) => {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = raw.prepare(sqlText);
        if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}

function openPostgres(pg: typeof import('pg').default, url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A client that loses its connection (server restart, failover, terminated backend) emits
  // 'error': idle ones on the pool, checked-out ones on themselves. Without listeners that error
  // would end the process; with them, the query in flight fails (500) and the pool reconnects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // Registered hot queries run as named prepared statements (see named-statements.ts); Kysely
    // passes plain text and values, so the name is added here, where the driver sees the query.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === 'string' ? statementName(text) : undefined;
      return name ? query({ name, text, values }, callback) : query(text, values, callback);
    };
  });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: postgresDialect, close: () => db.destroy() };
}
