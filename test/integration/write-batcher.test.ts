import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { inTransaction } from '../../packages/server/src/storage/connection.js';
import { isAppError } from '../../packages/server/src/errors.js';

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

  it('a batch that finds the database locked past busy_timeout is given up whole: every write 503, none stored, the connection usable after', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vellum-batch-')), 'b.db');
    const database = await openDatabase(`sqlite:${path}`, { busyTimeoutMs: 100 });
    const other = new BetterSqlite3(path);
    try {
      await sql`create table t (v text primary key)`.execute(database.db);
      const write = (v: string) =>
        inTransaction(database, async (conn) => {
          await sql`insert into t (v) values (${v})`.execute(conn.db);
          return v;
        });
      other.exec('begin immediate');
      const results = await Promise.allSettled([write('a'), write('b'), write('c')]);
      other.exec('rollback');
      for (const r of results) {
        expect(r.status).toBe('rejected');
        const reason = (r as PromiseRejectedResult).reason;
        expect(isAppError(reason) && reason.code).toBe('SERVICE_UNAVAILABLE');
        expect(reason.retryAfter).toBeGreaterThanOrEqual(1);
      }
      // One wait on the lock, one error for the whole batch: the writes after the first were not tried.
      expect(new Set(results.map((r) => (r as PromiseRejectedResult).reason)).size).toBe(1);
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(database.db)).rows[0].n).toBe(0);
      expect(await Promise.all([write('d'), write('e')])).toEqual(['d', 'e']);
    } finally {
      other.close();
      await database.close();
    }
  });
});
