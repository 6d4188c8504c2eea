import { sql } from 'kysely';
import type { Conn } from './connection.js';
import { databaseUnavailable } from './database-unavailable.js';

/** Resolves when the database answers a trivial query; otherwise throws the 503 `SERVICE_UNAVAILABLE`. */
export async function ping(conn: Conn): Promise<void> {
  try {
    await sql`select 1`.execute(conn.db);
  } catch (err) {
    throw databaseUnavailable(err, 'The database is not reachable');
  }
}
