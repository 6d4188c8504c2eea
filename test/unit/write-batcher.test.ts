import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { inTransaction } from '../../packages/server/src/storage/connection.js';

describe('SQLite group commit', () => {
  it('writes queued together share one commit; a failing one is rolled back alone', async () => {
    const database = await openDatabase(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vellum-batch-')), 'b.db')}`);
    try {
      await sql`create table t (v text primary key)`.execute(database.db);
      // The transaction each write ran in: one object per BEGIN … COMMIT.
      const transactions: unknown[] = [];
      const write = (v: string, fail = false) =>
        inTransaction(database, async (conn) => {
          transactions.push(conn.db);
          await sql`insert into t (v) values (${v})`.execute(conn.db);
          if (fail) throw new Error(`refused ${v}`);
          return v;
        });
      const results = await Promise.allSettled([write('a'), write('b', true), write('c'), write('a')]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['a', 'rejected', 'c', 'rejected']);
      const rows = await sql<{ v: string }>`select v from t order by v`.execute(database.db);
      expect(rows.rows.map((r) => r.v)).toEqual(['a', 'c']);
      expect(new Set(transactions).size).toBe(1);
      // A later write starts a new batch.
      await write('d');
      expect(new Set(transactions).size).toBe(2);
    } finally {
      await database.close();
    }
  });
});
