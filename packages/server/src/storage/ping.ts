import { sql } from 'kysely';
import type { Conn } from './connection.js';

export async function ping(conn: Conn): Promise<void> {
  await sql`select 1`.execute(conn.db);
}
