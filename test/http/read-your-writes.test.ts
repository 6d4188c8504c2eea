import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { createClient } from '../../packages/client/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * `Cache-Control: no-cache` on a read (docs/api.md, "Caching"): two nodes on one database that do
 * not tell each other of their writes (`realtime.fanout: local`), so a node's response cache holds
 * a list the other node's write made stale for up to its TTL. A plain read gets the cached list;
 * a read with `no-cache` gets the database's; and the client sends it after its own writes.
 */
let db: TestDatabase;
let a: App;
let b: App;
let token: string;

const node = (app: App) => ({
  fetch: ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    return app.server
      .inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: url.pathname + url.search,
        headers: init?.headers as Record<string, string>,
        payload: init?.body as string,
      })
      .then(
        (r) =>
          new Response(r.statusCode === 204 || r.statusCode === 304 ? null : r.rawPayload, {
            status: r.statusCode,
            headers: r.headers as Record<string, string>,
          }),
      );
  }) as typeof fetch,
});

beforeAll(async () => {
  db = await createTestDatabase();
  const config = resolveConfig(
    {
      database: { url: db.url },
      schemas: TEST_SCHEMAS,
      security: { bcryptRounds: 4, adminUser: ADMIN },
      webhooks: { worker: false },
      documents: { scheduleRunner: false },
      realtime: { fanout: 'local' },
    },
    {},
  );
  a = await createApp(config);
  b = await createApp(config);
  const login = await a.server.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: ADMIN.username, password: ADMIN.password },
  });
  token = login.json().data.token;
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

const list = (app: App, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'GET', url: '/api/documents/company?limit=50', headers: { authorization: `Bearer ${token}`, ...headers } });
const names = (res: { json(): { data: Array<{ name: string }> } }) => res.json().data.map((d) => d.name);

describe('reading your own writes across nodes', () => {
  it('a plain read may be the other node’s stale cache; with Cache-Control: no-cache it is rendered from the database', async () => {
    await list(a);
    const made = await b.server.inject({
      method: 'POST',
      url: '/api/documents/company',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Written on B' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(names(await list(a))).not.toContain('Written on B');
    for (const value of ['no-cache', 'max-age=0', 'no-cache, no-store'])
      expect(names(await list(a, { 'cache-control': value })), value).toContain('Written on B');
    // The fresh render replaced the stale entry: plain reads see it too now.
    expect(names(await list(a))).toContain('Written on B');
  });

  it('the client sends no-cache on its reads for a while after a write of its own, whichever node answers', async () => {
    const seen: Array<string | undefined> = [];
    let clock = 1_000_000;
    const viaA = node(a).fetch;
    const viaB = node(b).fetch;
    let turn = 0;
    // Every request of the client goes to the other node than the one before.
    const alternating = ((input: string | URL | Request, init?: RequestInit) => {
      seen.push((init?.headers as Record<string, string> | undefined)?.['cache-control']);
      return (turn++ % 2 === 0 ? viaA : viaB)(input, init);
    }) as typeof fetch;
    const client = createClient({ baseUrl: 'http://cms.test/api', fetch: alternating, now: () => clock });
    client.setToken(token);
    await client.list('company', { limit: 50 });
    await client.list('company', { limit: 50 });
    for (let i = 0; i < 20; i++) {
      const created = await client.create('company', { name: `Client write ${i}` });
      const page = await client.list('company', { limit: 50 });
      expect(page.data.map((d) => d.name)).toContain(`Client write ${i}`);
      expect(created._id).toBeDefined();
    }
    expect(seen.slice(0, 2)).toEqual([undefined, undefined]);
    expect(seen.filter((h) => h === 'no-cache')).toHaveLength(20);
    clock += 5_001;
    await client.list('company', { limit: 50 });
    expect(seen.at(-1)).toBeUndefined();
  });
});
