import type { RawBuilder } from 'kysely';
import type { Conn } from './connection.js';
import { nameReadShape } from './postgres/named-statements.js';

/**
 * Runs a read and answers its rows. `maySlow`: the read can take long whatever the indexes (a
 * filter no index serves, a search, a bounded count, skipping many rows); on SQLite it then runs
 * on the read worker's thread, so the event loop goes on meanwhile. Inside a transaction, and on
 * PostgreSQL (whose queries never hold the event loop), it runs where it always does; there a read
 * that is not slow becomes a named prepared statement (`nameReadShape`).
 */
export async function readRows<T>(conn: Conn, query: RawBuilder<T>, maySlow: boolean): Promise<T[]> {
  if (maySlow && conn.slowReads && !conn.db.isTransaction) {
    const compiled = query.compile(conn.db);
    return conn.slowReads.all<T>(compiled.sql, compiled.parameters);
  }
  const compiled = query.compile(conn.db);
  if (!maySlow) nameReadShape(compiled.sql);
  return (await conn.db.executeQuery(compiled)).rows;
}
