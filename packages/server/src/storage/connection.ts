import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';
import type { Dialect } from './dialect.js';
import type { SqliteReadWorker } from './sqlite/sqlite-read-worker.js';

/** What every store function takes: a query executor (the pool or an open transaction) and the dialect. */
export interface Conn {
  db: Kysely<Tables>;
  dialect: Dialect;
  /**
   * SQLite only, and only on the opened database (never on a transaction's Conn): a worker thread
   * with its own read-only connection for reads that may be slow (see `readRows`).
   */
  slowReads?: SqliteReadWorker;
}

/**
 * What `inTransaction` takes: a Conn, or the opened database with its SQLite write batcher. Named
 * here by shape, not by importing database.ts, which imports the batcher, which imports this file.
 */
export type TransactionSource = Conn & { batcher?: { run<T>(fn: (conn: Conn) => Promise<T>): Promise<T> } };

/** What to do once the transaction a Conn belongs to has committed; keyed by the Conn `inTransaction` made. */
const commitHooks = new WeakMap<Conn, Array<() => void>>();

/**
 * Runs `fn` in one transaction: everything it writes commits together or not at all. Hooks
 * registered with `afterCommit` run once the outermost transaction has committed, and never if
 * it rolled back.
 */
export async function inTransaction<T>(database: TransactionSource, fn: (conn: Conn) => Promise<T>): Promise<T> {
  if (database.db.isTransaction) return fn(database);
  const hooks: Array<() => void> = [];
  // A Conn of its own, so the SQLite batcher's writes that share one transaction keep their own hooks.
  const scoped = (conn: Conn) => {
    const own: Conn = { db: conn.db, dialect: conn.dialect };
    commitHooks.set(own, hooks);
    return fn(own);
  };
  // SQLite: transactions queued behind each other share one commit (see write-batcher.ts); its
  // promise settles after that commit.
  const value =
    'batcher' in database && database.batcher
      ? await database.batcher.run(scoped)
      : await database.db.transaction().execute((trx) => scoped({ db: trx, dialect: database.dialect }));
  for (const hook of hooks) hook();
  return value;
}

/**
 * Runs `hook` after the write on `conn` is committed: at once when `conn` is no transaction (its
 * statements commit as they run), after the commit of the transaction `inTransaction` opened
 * otherwise. A hook must not throw.
 */
export function afterCommit(conn: Conn, hook: () => void): void {
  const hooks = commitHooks.get(conn);
  if (hooks) hooks.push(hook);
  else if (!conn.db.isTransaction) hook();
  else throw new Error('afterCommit: a transaction not opened by inTransaction');
}
