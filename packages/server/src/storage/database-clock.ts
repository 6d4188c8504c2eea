import { sql } from 'kysely';
import type { Conn } from './connection.js';

/**
 * The database server's clock (`vellum doctor`: skew between it and this machine matters to
 * every node, since schedules, tokens and claims compare times written by different nodes).
 * `CURRENT_TIMESTAMP` is standard SQL: PostgreSQL answers a timestamp, SQLite UTC text to the second.
 */
export async function databaseNow(conn: Conn): Promise<Date> {
  const { rows } = await sql<{ now: Date | string }>`select current_timestamp as now`.execute(conn.db);
  const now = rows[0].now;
  return now instanceof Date ? now : new Date(`${now.replace(' ', 'T')}Z`);
}
