import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../packages/server/src/storage/database.js';
import { preparedQuery } from '../../packages/server/src/storage/prepared-query.js';
import { withTestDatabase } from '../helpers/database.js';

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
});
