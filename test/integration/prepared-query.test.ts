import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../packages/server/src/storage/database.js';
import { preparedQuery } from '../../packages/server/src/storage/prepared-query.js';
import { readRows } from '../../packages/server/src/storage/read-rows.js';
import { MAX_READ_SHAPES } from '../../packages/server/src/storage/postgres/named-statements.js';
import { withTestDatabase } from '../helpers/database.js';

// The cap on named read shapes counts per process: the server's modules are loaded afresh for this
// file (files share their worker's module cache, vitest.config.ts), so no earlier file's shapes count.
vi.hoisted(() => vi.resetModules());

describe('preparedQuery', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase('sqlite::memory:');
    await sql`create table instance (key text primary key, value text not null)`.execute(database.db);
  });
  afterAll(() => database.close());

  it('compiles once and binds each run its own values, constants in place, in any order', async () => {
    let builds = 0;
    const insert = preparedQuery(({ db }, param: (name: 'key' | 'value') => string) => {
      builds++;
      // The value comes first in the SQL text and the key second: binding follows the text, not the call.
      return db
        .insertInto('instance')
        .values({ value: param('value'), key: sql<string>`${param('key')} || ${'-suffix'}` as unknown as string });
    });
    const find = preparedQuery(({ db }, param: (name: 'key') => string) => {
      builds++;
      return db.selectFrom('instance').select(['key', 'value']).where('key', '=', param('key'));
    });
    const conn = { db: database.db, dialect: database.dialect };
    await insert(conn, { key: 'a', value: 'one' });
    await insert(conn, { value: 'two', key: 'b' });
    expect(await find(conn, { key: 'a-suffix' })).toEqual([{ key: 'a-suffix', value: 'one' }]);
    expect(await find(conn, { key: 'b-suffix' })).toEqual([{ key: 'b-suffix', value: 'two' }]);
    expect(await find(conn, { key: 'a' })).toEqual([]);
    expect(builds).toBe(2);
  });
});

describe('named statements on PostgreSQL', () => {
  it('a preparedQuery is parsed once per connection as a named statement; other queries are not kept', async () => {
    await withTestDatabase(async (tdb) => {
      const database = await openDatabase(tdb.url);
      try {
        await sql`create table instance (key text primary key, value text not null)`.execute(database.db);
        await sql`insert into instance values ('a', 'one'), ('b', 'two')`.execute(database.db);
        const find = preparedQuery(({ db }, param: (name: 'key') => string) =>
          db.selectFrom('instance').select('value').where('key', '=', param('key')),
        );
        // One transaction holds one pooled connection, so every run below shares its session.
        const prepared = await database.db.transaction().execute(async (trx) => {
          const conn = { db: trx, dialect: database.dialect };
          expect(await find(conn, { key: 'a' })).toEqual([{ value: 'one' }]);
          expect(await find(conn, { key: 'b' })).toEqual([{ value: 'two' }]);
          await trx.selectFrom('instance').select('key').where('value', '=', 'two').execute(); // an ordinary query
          return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;
        });
        expect(prepared).toHaveLength(1);
        expect(prepared[0].name).toMatch(/^vellum_[0-9a-f]{24}$/);
        expect(prepared[0].statement).toMatch(/^select "value" from "instance" where "key" = \$1$/);
      } finally {
        await database.close();
      }
    }, 'postgres');
  });

  it('a fast read (readRows) is named by its shape, a read that may be slow is not, and at most MAX_READ_SHAPES shapes are named', async () => {
    await withTestDatabase(async (tdb) => {
      const database = await openDatabase(tdb.url);
      try {
        const prepared = await database.db.transaction().execute(async (trx) => {
          const conn = { db: trx, dialect: database.dialect };
          const shape = (i: number) => sql<{ n: number }>`select ${sql.raw(String(i))}::int + ${1}::int as n`;
          // The same shape twice with other values: one statement.
          expect(await readRows(conn, sql<{ n: number }>`select ${2}::int as n`, false)).toEqual([{ n: 2 }]);
          expect(await readRows(conn, sql<{ n: number }>`select ${3}::int as n`, false)).toEqual([{ n: 3 }]);
          expect(await readRows(conn, sql<{ n: number }>`select ${4}::int * 2 as n`, true)).toEqual([{ n: 8 }]);
          for (let i = 0; i < MAX_READ_SHAPES + 20; i++) expect(await readRows(conn, shape(i), false)).toEqual([{ n: i + 1 }]);
          return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx)).rows.map((r) => r.statement);
        });
        expect(prepared).toContain('select $1::int as n');
        expect(prepared).not.toContain('select $1::int * 2 as n');
        expect(prepared).toHaveLength(MAX_READ_SHAPES);
        expect(prepared).not.toContain(`select ${MAX_READ_SHAPES + 5}::int + $1::int as n`);
      } finally {
        await database.close();
      }
    }, 'postgres');
  });
});
