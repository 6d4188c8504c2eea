import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';
import type { Dialect } from './dialects/dialect.js';

/** What every store function takes: a query executor (the pool or an open transaction) and the dialect. */
export interface Conn {
  db: Kysely<Tables>;
  dialect: Dialect;
}

/**
 * What `inTransaction` takes: a Conn, or the opened database with its SQLite write batcher. Named
 * here by shape, not by importing database.ts, which imports the batcher, which imports this file.
 */
export type TransactionSource = Conn & { batcher?: { run<T>(fn: (conn: Conn) => Promise<T>): Promise<T> } };

/** Runs `fn` in one transaction: everything it writes commits together or not at all. */
export async function inTransaction<T>(database: TransactionSource, fn: (conn: Conn) => Promise<T>): Promise<T> {
  if (database.db.isTransaction) return fn(database);
  // SQLite: transactions queued behind each other share one commit (see write-batcher.ts).
  if ('batcher' in database && database.batcher) return database.batcher.run(fn);
  return database.db.transaction().execute((trx) => fn({ db: trx, dialect: database.dialect }));
}
