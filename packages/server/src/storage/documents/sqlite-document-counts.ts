import { sql, type Kysely } from 'kysely';

/**
 * SQLite: row triggers keep `document_counts` exact in the writing transaction itself (one
 * writer at a time, so one row per type and status, `shard` 0). Every path that writes
 * `documents` (creates, updates, deletes, restores, imports, bulk inserts) is counted, as the
 * database does it rather than the code.
 */
export async function createSqliteDocumentCounts(db: Kysely<unknown>): Promise<void> {
  // "insert or ignore, then update": the plainest form every SQLite version takes inside a trigger.
  const add = (row: 'new' | 'old', delta: string) => `
    insert or ignore into document_counts (type, status, shard, n) values (${row}.type, ${row}.status, 0, 0);
    update document_counts set n = n ${delta} where type = ${row}.type and status = ${row}.status and shard = 0;`;
  await sql.raw(`create trigger documents_count_insert after insert on documents begin ${add('new', '+ 1')} end`).execute(db);
  await sql.raw(`create trigger documents_count_delete after delete on documents begin ${add('old', '- 1')} end`).execute(db);
  await sql
    .raw(
      `create trigger documents_count_update after update of type, status on documents
       when old.type is not new.type or old.status is not new.status
       begin ${add('old', '- 1')} ${add('new', '+ 1')} end`,
    )
    .execute(db);
}
