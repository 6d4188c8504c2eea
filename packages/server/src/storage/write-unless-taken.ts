import { sql } from 'kysely';
import type { Conn } from './connection.js';

/** A write that a unique index (id, username, slug, unique field…) may refuse. */
export type UniqueWrite<T> = { written: true; value: T } | { written: false };

/**
 * Runs `write`; `{written: false}` when a unique index refused it (nothing of that statement
 * stays). On PostgreSQL the refusal aborts the surrounding transaction: the caller may only
 * report it, not write on.
 */
export async function writeUnlessTaken<T>(conn: Conn, write: () => Promise<T>): Promise<UniqueWrite<T>> {
  try {
    return { written: true, value: await write() };
  } catch (err) {
    if (conn.dialect.isUniqueViolation(err)) return { written: false };
    throw err;
  }
}

/**
 * Where a statement refused by a unique index is undone alone and the transaction goes on
 * (SQLite), runs `write` at once: a write that usually succeeds then skips the queries that would
 * ask first. Elsewhere (PostgreSQL) nothing runs and the answer is `{written: false}`, as if it
 * had been refused: the caller asks, then writes.
 */
export async function tryWriteFirst<T>(conn: Conn, write: () => Promise<T>): Promise<UniqueWrite<T>> {
  if (!conn.dialect.keepsTransactionAfterFailedStatement) return { written: false };
  // A write is several statements (an update copies the version it replaces into the revisions
  // first): a savepoint undoes the ones before the refused statement too, so the next try starts clean.
  await sql`savepoint vellum_try_first`.execute(conn.db);
  try {
    const outcome = await writeUnlessTaken(conn, write);
    if (!outcome.written) await sql`rollback to vellum_try_first`.execute(conn.db);
    return outcome;
  } catch (err) {
    await sql`rollback to vellum_try_first`.execute(conn.db);
    throw err;
  } finally {
    await sql`release vellum_try_first`.execute(conn.db);
  }
}
