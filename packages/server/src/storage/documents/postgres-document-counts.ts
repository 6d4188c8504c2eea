import { sql, type Kysely } from 'kysely';

/** Rows per (type, status): concurrent writers of one type mostly touch different rows. */
export const POSTGRES_COUNT_SHARDS = 16;

/**
 * PostgreSQL: statement triggers keep `document_counts` exact in the writing transaction. They
 * read the statement's transition tables, so a statement that writes many rows (an import, a bulk
 * insert) adds one delta per (type, status), not one per row.
 *
 * Concurrent writers would queue on one counter row per type and status until they commit; the
 * counts are split into shards chosen by the session's backend, so writers on different
 * connections mostly take different rows. The deltas of one statement are applied in key order,
 * so two statements moving documents between statements in opposite directions cannot deadlock.
 */
export async function createPostgresDocumentCounts(db: Kysely<unknown>): Promise<void> {
  const apply = (deltas: string) => `
    insert into document_counts as c (type, status, shard, n)
      select type, status, pg_backend_pid() % ${POSTGRES_COUNT_SHARDS}, sum(d) from (${deltas}) deltas
      group by type, status having sum(d) <> 0 order by type, status
    on conflict (type, status, shard) do update set n = c.n + excluded.n;`;
  const fn = (name: string, deltas: string) =>
    sql.raw(`
    create function ${name}() returns trigger language plpgsql as $$
    begin ${apply(deltas)} return null; end $$`);
  await fn('vellum_count_inserted', 'select type, status, 1 as d from new_rows').execute(db);
  await fn('vellum_count_deleted', 'select type, status, -1 as d from old_rows').execute(db);
  await fn(
    'vellum_count_updated',
    'select type, status, -1 as d from old_rows union all select type, status, 1 as d from new_rows',
  ).execute(db);
  await sql`create trigger documents_count_insert after insert on documents
    referencing new table as new_rows for each statement execute function vellum_count_inserted()`.execute(db);
  await sql`create trigger documents_count_delete after delete on documents
    referencing old table as old_rows for each statement execute function vellum_count_deleted()`.execute(db);
  await sql`create trigger documents_count_update after update on documents
    referencing old table as old_rows new table as new_rows for each statement execute function vellum_count_updated()`.execute(db);
}
