import { statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loopTurns, scratchDatabases } from '../helpers/sqlite-scratch.js';
import { inTransaction } from '../../packages/server/src/storage/connection.js';
import type { Database } from '../../packages/server/src/storage/database.js';
import { SqliteMaintenance } from '../../packages/server/src/storage/sqlite/sqlite-maintenance.js';
import { SqliteReadWorker } from '../../packages/server/src/storage/sqlite/sqlite-read-worker.js';

/**
 * SQLite upkeep off the event loop (docs/architecture.md, "Writes on SQLite" and "Reads on
 * SQLite"): checkpoints and search-index merges on the maintenance thread
 * (storage/sqlite-maintenance.ts), and a writer that waits for another connection's lock on
 * timers instead of asleep in SQLite's busy handler (storage/sqlite-statements.ts, whenUnlocked).
 */
const withDatabase = scratchDatabases('vellum-maintenance-');

const one = async <T>(database: Database, query: ReturnType<typeof sql<T>>) => (await query.execute(database.db)).rows[0];

/**
 * The thread's count of merge statements once it stops moving over ten of its merge turns (both
 * threads on the file may still finish a merge under load); at most 20 looks, so a thread that
 * never rests reaches the test's own assertion instead of hanging.
 */
async function settled(maintenance: SqliteMaintenance): Promise<number> {
  let last = await maintenance.mergeSteps();
  for (let look = 0; look < 20; look++) {
    const now = await maintenance.mergeStepsAfterTurns(10);
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Once the maintenance thread's first `PRAGMA optimize` has run (two seconds after opening). */
async function statisticsGathered(database: Database): Promise<void> {
  const stats = sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`;
  await expect.poll(async () => (await one(database, stats)).n, { timeout: 10_000 }).toBe(1);
}

describe('the SQLite maintenance thread', () => {
  it('copies the write-ahead log into the database file on its own thread; the writer does not', async () => {
    await withDatabase('checkpoint.db', async (database, file) => {
      const before = statSync(file).size;
      const autocheckpoint = await inTransaction(database, async (conn) => {
        await sql`with recursive c(v) as (select 1 union all select v + 1 from c where v < 200000) insert into t (x) select v from c`.execute(
          conn.db,
        );
        // Inside a transaction: the writer's own setting.
        return (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(conn.db)).rows[0].wal_autocheckpoint;
      });
      expect(autocheckpoint).toBe(0); // the COMMIT never checkpoints
      // The rows reach the database file itself only through a checkpoint: the thread's, every 200 ms.
      await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(before + 1_000_000);
    });
  });

  it('keeps the write-ahead log bounded under a steady stream of writes: the writer starts it over once the thread has copied it', async () => {
    await withDatabase('restart.db', async (database, file) => {
      const wal = `${file}-wal`;
      let largest = 0;
      const watch = setInterval(() => (largest = Math.max(largest, statSync(wal, { throwIfNoEntry: false })?.size ?? 0)), 20);
      try {
        // Four writers, 20 KB a write, 4 000 writes: about 90 MB through the log, with the next write
        // always queued. A log that only a PASSIVE checkpoint beside the writer copies is never
        // wholly copied when the next write begins, so SQLite never starts it over and it grows
        // by every page written (about 90 MB here).
        const writer = async () => {
          for (let i = 0; i < 1000; i++) {
            await inTransaction(database, (conn) => sql`insert into t (x) values (randomblob(20000))`.execute(conn.db));
            await new Promise((r) => setTimeout(r, 1));
          }
        };
        await Promise.all(Array.from({ length: 4 }, writer));
      } finally {
        clearInterval(watch);
      }
      largest = Math.max(largest, statSync(wal).size);
      expect((await one(database, sql<{ n: number }>`select count(*) as n from t`)).n).toBe(4_000);
      // The log restarts past 16 MB (sqlite-maintenance.ts, RESTART_LOG_PAGES) once the thread's
      // checkpoint (every 200 ms) has copied it; what is written until then comes on top.
      expect(largest).toBeLessThan(56 * 1024 * 1024);
    });
  });

  it("merges the search index's segments on its own thread, with the index's automatic merging off", async () => {
    await withDatabase('search.db', async (database) => {
      await sql`create virtual table documents_fts using fts5(body)`.execute(database.db);
      // The thread switches the writer's merging off (a setting the index keeps) once the table is there.
      await expect
        .poll(async () => (await one(database, sql<{ v: number }>`select v from documents_fts_config where k = 'automerge'`))?.v, {
          timeout: 10_000,
        })
        .toBe(0);
      // Each write in its own transaction leaves a segment of its own.
      for (let i = 1; i <= 12; i++) {
        await inTransaction(database, (conn) =>
          sql`insert into documents_fts (rowid, body) values (${i}, ${`common word${i}`})`.execute(conn.db),
        );
      }
      const segments = sql<{ n: number }>`select count(distinct segid) as n from documents_fts_idx`;
      // 12 segments without merging (fewer than the crisis merge's 16); the thread merges them.
      await expect.poll(async () => (await one(database, segments)).n, { timeout: 10_000 }).toBeLessThanOrEqual(3);
      expect((await one(database, sql<{ n: number }>`select count(*) as n from documents_fts where documents_fts match 'common'`)).n).toBe(
        12,
      );
      expect((await one(database, sql<{ n: number }>`select rowid as n from documents_fts where documents_fts match 'word7'`)).n).toBe(7);
    });
  });

  it("keeps the planner's statistics current: gathered after opening, gathered again once a table has grown tenfold, and read by every connection", async () => {
    await withDatabase('stats.db', async (database, file) => {
      await sql`create table d (seq integer primary key, type text, created text, data text)`.execute(database.db);
      await sql`create index d_type_created on d (type, created)`.execute(database.db);
      await sql`create index d_type_title on d (type, json_extract(data, '$.title'))`.execute(database.db);
      const insert = (from: number, to: number, title: string) =>
        sql`with recursive c(v) as (select ${from} union all select v + 1 from c where v < ${to})
          insert into d (type, created, data) select 'post', printf('%08d', v), json_object('title', ${sql.raw(title)}) from c`.execute(
          database.db,
        );
      // The plan the connection would run now: a real statement first (an EXPLAIN alone never
      // checks the schema is current), then a text of its own (a cached one keeps its plan).
      let n = 0;
      const plan = async () => {
        await sql`select count(*) from d`.execute(database.db);
        const rows = await sql<{ detail: string }>`explain query plan select seq from d where type = 'post'
            and json_extract(data, '$.title') = 'Post 5' order by created desc limit ${sql.raw(String(20 + n++))}`.execute(database.db);
        return rows.rows.map((r) => r.detail).join('; ');
      };
      // 200 posts with one title: the title's index picks out nothing, and the statistics say so
      // (the thread's first run, two seconds after opening).
      await insert(1, 200, "'Post 5'");
      await statisticsGathered(database);
      expect(await plan()).not.toContain('d_type_title');
      // A hundred times as many, each title its own: statistics gathered again (here by a second
      // thread on the file, asked at once) make every connection seek the title's index.
      await insert(201, 20_200, "'Post ' || v");
      const thread = new SqliteReadWorker(file, 5_000, -1024);
      const maintenance = new SqliteMaintenance(thread.worker, file, (err) => {
        throw err;
      });
      try {
        expect(await maintenance.optimize()).toBe(1);
        expect(await plan()).toContain('d_type_title');
        // Nothing changed since: the next run analyzes nothing.
        expect(await maintenance.optimize()).toBe(1);
      } finally {
        await maintenance.close();
        await thread.close();
      }
    });
  });

  it('stays idle once the index is merged: no merge statement runs until another connection writes', async () => {
    await withDatabase('idle.db', async (database, file) => {
      await sql`create virtual table documents_fts using fts5(body)`.execute(database.db);
      for (let i = 1; i <= 12; i++) {
        await inTransaction(database, (conn) =>
          sql`insert into documents_fts (rowid, body) values (${i}, ${`common word${i}`})`.execute(conn.db),
        );
      }
      // The database's own thread gathers statistics once, two seconds after opening: a commit,
      // which the counted thread would see as work to look at. Past it, nothing else writes.
      await statisticsGathered(database);
      // A thread of its own on the same file, so its merge statements can be counted.
      const thread = new SqliteReadWorker(file, 5_000, -1024);
      const maintenance = new SqliteMaintenance(thread.worker, file, (err) => {
        throw err;
      });
      try {
        const segments = sql<{ n: number }>`select count(distinct segid) as n from documents_fts_idx`;
        await expect.poll(async () => (await one(database, segments)).n, { timeout: 10_000 }).toBeLessThanOrEqual(3);
        // Merged: a no-op 'merge' still counts one change, which must not read as work done.
        const merged = await settled(maintenance);
        expect(await maintenance.mergeStepsAfterTurns(10)).toBe(merged);
        // A write by another connection is new work: the thread looks again, then rests again.
        await inTransaction(database, (conn) => sql`insert into documents_fts (rowid, body) values (13, 'common late')`.execute(conn.db));
        await expect.poll(() => maintenance.mergeSteps(), { timeout: 10_000 }).toBeGreaterThan(merged);
        const again = await settled(maintenance);
        expect(await maintenance.mergeStepsAfterTurns(10)).toBe(again);
      } finally {
        await maintenance.close();
        await thread.close();
      }
    });
  });
});

describe('the SQLite writer and a lock held by another connection', () => {
  const writes: Array<[string, (database: Database) => Promise<unknown>]> = [
    ['a transaction', (database) => inTransaction(database, (conn) => sql`insert into t (x) values (1)`.execute(conn.db))],
    ['a write outside a transaction', (database) => sql`insert into t (x) values (1)`.execute(database.db)],
  ];
  it.each(writes)(
    '%s waits for the lock on timers: the event loop turns meanwhile, and the write lands once the lock is free',
    async (_, write) => {
      await withDatabase(`wait-${writes.findIndex(([, w]) => w === write)}.db`, async (database, file) => {
        const other = new BetterSqlite3(file);
        try {
          other.exec('begin immediate');
          // Released on the 50th turn of this event loop: a writer asleep in SQLite's busy handler
          // would hold the loop, the turns could not come, and the write would fail after busyTimeoutMs.
          const stop = loopTurns(50, () => other.exec('commit'));
          await write(database);
          expect(stop()).toBeGreaterThan(10);
          expect((await one(database, sql<{ n: number }>`select count(*) as n from t`)).n).toBe(1);
        } finally {
          other.close();
        }
      });
    },
  );

  it('past busyTimeoutMs it answers 503, the event loop turning all the while', async () => {
    await withDatabase(
      'wait-timeout.db',
      async (database, file) => {
        const other = new BetterSqlite3(file);
        try {
          other.exec('begin immediate');
          const stop = loopTurns();
          const failed = await sql`insert into t (x) values (3)`.execute(database.db).catch((err: unknown) => err);
          expect(stop()).toBeGreaterThan(10);
          expect(failed).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
          other.exec('rollback');
          expect((await one(database, sql<{ n: number }>`select count(*) as n from t`)).n).toBe(0);
        } finally {
          other.close();
        }
      },
      200,
    );
  });
});
