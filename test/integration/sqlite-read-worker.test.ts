import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loopTurns, scratchDatabases } from '../helpers/sqlite-scratch.js';
import { inTransaction } from '../../packages/server/src/storage/connection.js';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { readRows } from '../../packages/server/src/storage/read-rows.js';
import { startTestApp, ADMIN } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * SQLite reads that may be slow run on the read worker's thread (storage/read-rows.ts,
 * storage/sqlite-read-worker.ts), so the event loop goes on while they run. SQLite only: on
 * PostgreSQL no query holds the event loop in the first place.
 */
const withDatabase = scratchDatabases('vellum-read-worker-');

const LONG_COUNT = sql<{ n: number }>`
  with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) as n from c`;

describe('the SQLite read worker', () => {
  it('runs a long read while the event loop keeps turning, and answers its rows', async () => {
    await withDatabase('long.db', async (database) => {
      expect(database.slowReads).toBeDefined();
      const stop = loopTurns();
      const rows = await readRows(database, LONG_COUNT, true);
      const turns = stop();
      expect(rows).toEqual([{ n: 2_000_000 }]);
      // On the main thread the whole count would run inside one turn.
      expect(turns).toBeGreaterThan(10);
    });
  });

  it('sees what the writer committed, and a read that may be fast stays on the main thread', async () => {
    await withDatabase('committed.db', async (database) => {
      await sql`insert into t (x) values (1), (2)`.execute(database.db);
      const seen: string[] = [];
      const all = database.slowReads!.all.bind(database.slowReads!);
      database.slowReads!.all = async <T>(text: string, params: readonly unknown[]) => (seen.push(text), all<T>(text, params));
      expect(await readRows(database, sql<{ n: number }>`select count(*) as n from t where x > ${0}`, true)).toEqual([{ n: 2 }]);
      expect(await readRows(database, sql<{ n: number }>`select count(*) as n from t`, false)).toEqual([{ n: 2 }]);
      expect(seen).toEqual(['select count(*) as n from t where x > ?']);
    });
  });

  it('inside a transaction reads stay on the transaction, which sees its own writes', async () => {
    await withDatabase('tx.db', async (database) => {
      const seen: string[] = [];
      const all = database.slowReads!.all.bind(database.slowReads!);
      database.slowReads!.all = async <T>(text: string, params: readonly unknown[]) => (seen.push(text), all<T>(text, params));
      const n = await inTransaction(database, async (conn) => {
        await sql`insert into t (x) values (7)`.execute(conn.db);
        return (await readRows(conn, sql<{ n: number }>`select count(*) as n from t`, true))[0].n;
      });
      expect(n).toBe(1);
      expect(seen).toEqual([]);
    });
  });

  it('a failing read rejects with the error; a closed worker refuses at once', async () => {
    await withDatabase('errors.db', async (database) => {
      await expect(readRows(database, sql`select * from no_such_table`, true)).rejects.toThrow(/no such table/);
      await database.slowReads!.close();
      await expect(readRows(database, sql`select 1`, true)).rejects.toThrow(/stopped/);
    });
  });

  it('an in-memory database has no worker: every read stays on its one connection', async () => {
    const database = await openDatabase('sqlite::memory:');
    try {
      expect(database.slowReads).toBeUndefined();
      expect(await readRows(database, sql<{ one: number }>`select 1 as one`, true)).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });
});

describe('document lists on SQLite', () => {
  it('a filter no index serves, a search and a bounded count go to the worker; a plain or status-only list does not', async () => {
    const t = await startTestApp({ schemas: TEST_SCHEMAS });
    try {
      const token = await t.login(ADMIN.username, ADMIN.password);
      const res = await t.request({ method: 'POST', url: '/api/documents/post', token, payload: { title: 'Hello', category: 'guide' } });
      expect(res.statusCode, res.body).toBe(201);
      const worker = t.app.services.database.slowReads!;
      const seen: string[] = [];
      const all = worker.all.bind(worker);
      worker.all = async <T>(text: string, params: readonly unknown[]) => (seen.push(text), all<T>(text, params));
      const list = async (query: string) => {
        seen.length = 0;
        const r = await t.request({ method: 'GET', url: `/api/documents/post?${query}`, token });
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json().meta.total).toBe(1);
        return seen.length;
      };
      expect(await list('filter[category]=guide')).toBe(2); // the page and the bounded count
      expect(await list('search=hello')).toBe(2);
      expect(await list('orderBy=title')).toBe(1); // a JSON order: the page (the total is maintained)
      expect(await list('limit=5')).toBe(0);
      expect(await list('filter[_status]=draft')).toBe(0);
    } finally {
      await t.close();
    }
  });
});
