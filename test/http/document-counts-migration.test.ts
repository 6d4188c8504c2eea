import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { migrations } from '../../packages/server/src/storage/migrations/index.js';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/** Migration 014 counts the documents stored before it (docs/api.md, "Totals"); the triggers go on from there. */
describe('documents written before the counts existed', () => {
  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());

  it('are counted by the migration, and writes after it keep the totals exact', async () => {
    db = await createTestDatabase();
    const old = await openDatabase(db.url);
    try {
      const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrations(old.dialect) } });
      const { error } = await migrator.migrateTo('013-webhooks');
      expect(error).toBeUndefined();
      const now = new Date().toISOString();
      for (const [type, status, title] of [
        ['post', 'published', 'One'],
        ['post', 'published', 'Two'],
        ['post', 'draft', 'Three'],
        ['author', 'published', 'Ann'],
      ]) {
        const data = JSON.stringify(type === 'post' ? { title } : { name: title });
        await sql`insert into documents (id, type, status, rev, created_at, updated_at, data)
          values (${uuidv7()}, ${type}, ${status}, 1, ${now}, ${now}, ${data})`.execute(old.db);
      }
    } finally {
      await old.close();
    }

    const app = await createApp(
      resolveConfig({ database: { url: db.url }, security: { bcryptRounds: 4, adminUser: ADMIN }, schemas: TEST_SCHEMAS }, {}),
    );
    try {
      const total = async (url: string) => (await app.server.inject({ method: 'GET', url })).json().meta.total;
      expect(await total('/api/documents/post')).toBe(2); // anonymous: published only
      expect(await total('/api/documents/author')).toBe(1);
      const login = await app.server.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: ADMIN.password },
      });
      const token = login.json().data.token as string;
      const authed = async (url: string) =>
        (await app.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).json().meta.total;
      expect(await authed('/api/documents/post')).toBe(3);
      const created = await app.server.inject({
        method: 'POST',
        url: '/api/documents/post',
        headers: { authorization: `Bearer ${token}` },
        payload: { title: 'Four', _status: 'draft' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(await authed('/api/documents/post')).toBe(4);
      expect(await authed('/api/documents/post?filter[_status]=draft')).toBe(2);
    } finally {
      await app.close();
    }
  });
});
