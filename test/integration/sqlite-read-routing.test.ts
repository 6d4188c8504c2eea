import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteKyselyDialect } from '../../packages/server/src/storage/sqlite/sqlite-driver.js';

/**
 * Which SQLite connection a statement runs on (storage/sqlite-driver.ts). Each connection answers
 * `which()` with its own name, so a statement tells where it ran.
 */

let dir: string | undefined;
let db: Kysely<unknown> | undefined;

afterEach(async () => {
  await db?.destroy();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function named(path: string, name: string): BetterSqlite3.Database {
  const conn = new BetterSqlite3(path);
  conn.pragma('journal_mode = WAL');
  conn.function('which', { deterministic: false }, () => name);
  return conn;
}

async function open(): Promise<Kysely<unknown>> {
  dir = mkdtempSync(join(tmpdir(), 'vellum-routing-'));
  const path = join(dir, 'routing.db');
  const writer = named(path, 'writer');
  writer.exec('create table t (id integer primary key, via text)');
  const reader = named(path, 'reader');
  reader.pragma('query_only = ON');
  db = new Kysely<unknown>({ dialect: sqliteKyselyDialect(writer, reader, 5_000) });
  return db;
}

const which = async (on: Kysely<unknown>) => (await sql<{ via: string }>`select which() as via`.execute(on)).rows[0].via;

describe('SQLite statement routing', () => {
  it('a read-only statement outside a transaction runs on the reader', async () => {
    const k = await open();
    expect(await which(k)).toBe('reader');
  });

  it('a write that returns rows (INSERT … RETURNING) runs on the writer', async () => {
    const k = await open();
    const { rows } = await sql<{ via: string }>`insert into t (via) values (which()) returning via`.execute(k);
    expect(rows).toEqual([{ via: 'writer' }]);
  });

  it('a plain write runs on the writer and reports what it changed', async () => {
    const k = await open();
    const result = await sql`insert into t (via) values (which())`.execute(k);
    expect(result.numAffectedRows).toBe(1n);
    expect((await sql<{ via: string }>`select via from t`.execute(k)).rows).toEqual([{ via: 'writer' }]);
  });

  it('inside a transaction every statement, reads too, runs on the writer', async () => {
    const k = await open();
    const seen = await k.transaction().execute(async (trx) => {
      await sql`insert into t (via) values ('in transaction')`.execute(trx);
      return { via: await which(trx), count: (await sql<{ n: number }>`select count(*) as n from t`.execute(trx)).rows[0].n };
    });
    expect(seen).toEqual({ via: 'writer', count: 1 });
  });

  it('a streamed select runs on the reader outside a transaction and on the writer inside one', async () => {
    const k = await open();
    const streamed = async (on: Kysely<unknown>) => {
      const rows: unknown[] = [];
      for await (const row of on.selectNoFrom(sql<string>`which()`.as('via')).stream()) rows.push(row);
      return rows;
    };
    expect(await streamed(k)).toEqual([{ via: 'reader' }]);
    expect(await k.transaction().execute((trx) => streamed(trx))).toEqual([{ via: 'writer' }]);
  });

  it('without a reader (an in-memory database) everything runs on the one connection', async () => {
    const memory = new BetterSqlite3(':memory:');
    memory.function('which', { deterministic: false }, () => 'writer');
    db = new Kysely<unknown>({ dialect: sqliteKyselyDialect(memory, undefined, 5_000) });
    expect(await which(db)).toBe('writer');
  });
});
