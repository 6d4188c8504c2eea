import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * `document_counts`: how many documents each type has in each status, kept exact by triggers in
 * the transaction of every write (see `Dialect.createDocumentCounts`), so a list's `meta.total`
 * for a type, or a type and status, is a read of a few rows instead of a count over the
 * documents (docs/api.md, "Totals"). PostgreSQL splits each count into shards (rows summed on
 * read); SQLite keeps one.
 */
export function documentCounts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('document_counts')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('shard', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_counts_pk', ['type', 'status', 'shard'])
        .execute();
      // Documents stored before this migration, counted once; the triggers keep it from here.
      await sql`insert into document_counts (type, status, shard, n)
        select type, status, 0, count(*) from documents group by type, status`.execute(db);
      await dialect.createDocumentCounts(db);
    },
  };
}
