import { sql, Migrator, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { migrations } from '../../packages/server/src/storage/migrations/index.js';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { postDocument } from '../helpers/post-document.js';
import { createTestDatabase, dialect, type TestDatabase, type TestDialect } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { useContentApp } from '../helpers/use-content-app.js';

/** Search folds accents on both databases (docs/api.md, "List queries"). */
let t: TestApp;
let admin: string;

useContentApp((app, token) => ((t = app), (admin = token)));

beforeAll(async () => {
  for (const title of ['Crème brûlée', 'Café', 'Tea']) await postDocument(t, admin, 'post', { title, _status: 'published' });
});

async function found(search: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/documents/post?search=${encodeURIComponent(search)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((d: { title: string }) => d.title);
}

describe('search folds accents', () => {
  it.each([
    ['creme brulee', ['Crème brûlée']],
    ['crème', ['Crème brûlée']],
    ['CRÈME BRÛ', ['Crème brûlée']],
    ['brulée', ['Crème brûlée']],
    ['Cafe', ['Café']],
    ['café', ['Café']],
    ['caf', ['Café']],
    ['tea', ['Tea']],
    ['téa', ['Tea']],
  ])('search=%s', async (search, titles) => {
    expect(await found(search)).toEqual(titles);
  });

  it('follows updates', async () => {
    const [doc] = (await t.request({ method: 'GET', url: '/api/documents/post?filter[title]=Tea', token: admin })).json().data;
    const res = await t.request({ method: 'PATCH', url: `/api/documents/post/${doc._id}`, token: admin, payload: { body: 'Smörgåsbord' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await found('smorgasbord')).toEqual(['Tea']);
  });
});

/**
 * How the code before migration 007 stored a document's search text: PostgreSQL's `simple`
 * configuration (no folding), SQLite's FTS5 table (which folded already).
 */
const SEARCH_BEFORE_007: Record<TestDialect, (seq: number, text: string) => RawBuilder<unknown>> = {
  postgres: (seq, text) => sql`update documents set search = to_tsvector('simple', ${text}) where seq = ${seq}`,
  sqlite: (seq, text) => sql`insert into documents_fts (rowid, body) values (${seq}, ${text})`,
};

describe('documents written before the upgrade', () => {
  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());

  it('are found by their unaccented words once the search migration has run', async () => {
    db = await createTestDatabase();
    const old = await openDatabase(db.url);
    try {
      const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrations(old.dialect) } });
      const { error } = await migrator.migrateTo('005-media');
      expect(error).toBeUndefined();
      const now = new Date().toISOString();
      const { rows } = await sql<{ seq: number }>`insert into documents (id, type, status, rev, created_at, updated_at, data)
        values (${uuidv7()}, 'post', 'published', 1, ${now}, ${now}, ${JSON.stringify({ title: 'Crème brûlée' })}) returning seq`.execute(
        old.db,
      );
      // Quotes, backslashes, paths and addresses in the text must survive the re-indexing too.
      const text = "Crème brûlée\nl'été a\\b C:\\Thé /usr/lib/crème mail@exämple.com https://exämple.com/päth";
      await SEARCH_BEFORE_007[dialect](Number(rows[0].seq), text).execute(old.db);
    } finally {
      await old.close();
    }

    const app = await createApp(
      resolveConfig({ database: { url: db.url }, security: { bcryptRounds: 4, adminUser: ADMIN }, schemas: TEST_SCHEMAS }, {}),
    );
    try {
      for (const search of ['creme brulee', 'crème', 'brûl', 'ete', 'the']) {
        const res = await app.server.inject({ method: 'GET', url: `/api/documents/post?search=${encodeURIComponent(search)}` });
        expect(res.statusCode, res.body).toBe(200);
        expect(
          res.json().data.map((d: { title: string }) => d.title),
          search,
        ).toEqual(['Crème brûlée']);
      }
    } finally {
      await app.close();
    }
  });
});
