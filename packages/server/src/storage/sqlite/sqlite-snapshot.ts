import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Conn } from '../connection.js';
import type { Tables } from '../tables.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { sqliteKyselyDialect } from './sqlite-driver.js';

/**
 * Runs `fn` on a read-only connection of its own inside one read transaction: in WAL mode it
 * sees the database as it was at its first read, however long it runs, while the server's own
 * connections go on writing (https://www.sqlite.org/wal.html, "Concurrency"). The transaction
 * is DEFERRED, so it takes no lock a writer waits for.
 */
export async function sqliteSnapshot<T>(path: string, busyTimeoutMs: number, fn: (conn: Conn) => Promise<T>): Promise<T> {
  const connection = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  connection.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  // Without a reader every statement runs on the one connection given: this one, inside BEGIN.
  const db = new Kysely<Tables>({ dialect: sqliteKyselyDialect(connection, undefined, busyTimeoutMs) });
  try {
    connection.exec('begin');
    // The snapshot is taken by the first read, not by BEGIN: take it now.
    connection.prepare('select count(*) from sqlite_master').get();
    return await fn({ db, dialect: sqliteDialect });
  } finally {
    if (connection.inTransaction) connection.exec('commit');
    await db.destroy();
  }
}
