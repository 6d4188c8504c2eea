import { sql } from 'kysely';
import type { Conn } from '../connection.js';
import { readRows } from '../read-rows.js';

/**
 * How many documents of `type` are in one of `statuses`: a read of the maintained counts
 * (migration 014), a few rows whatever the number of documents.
 */
export async function countByStatuses(conn: Conn, type: string, statuses: readonly string[]): Promise<number> {
  if (statuses.length === 0) return 0;
  const [row] = await readRows(
    conn,
    sql<{ n: number | string | null }>`
    select sum(n) as n from document_counts
    where type = ${type} and status in (${sql.join(statuses.map((s) => sql`${s}`))})`,
    false,
  );
  return Number(row?.n ?? 0);
}
