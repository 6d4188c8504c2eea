import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// A webhook's secret (or its sealed form) never reaches the log, even at debug level, on any
// webhook endpoint, failing ones included (docs/api.md, "Webhooks").
let db: TestDatabase;
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const config = resolveConfig({ database: { url: db.url }, security: { bcryptRounds: 4, adminUser: ADMIN }, schemas: TEST_SCHEMAS }, {});
  app = await createApp(config, { logger: { level: 'debug', stream: { write: (line) => void lines.push(line) } } });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

it('logs neither the secret nor its ciphertext', async () => {
  const login = await app.server.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: ADMIN.username, password: ADMIN.password },
  });
  const headers = { authorization: `Bearer ${login.json().data.token}` };
  const payload = { name: 'Logged', url: 'https://hooks.example.com/l', events: ['*'] };
  const created = await app.server.inject({ method: 'POST', url: '/api/webhooks', headers, payload });
  expect(created.statusCode).toBe(201);
  const { secret, webhook } = created.json().data;
  const rotated = await app.server.inject({ method: 'POST', url: `/api/webhooks/${webhook.id}/rotate-secret`, headers });
  const secrets = [secret, rotated.json().data.secret] as string[];
  await app.server.inject({ method: 'GET', url: `/api/webhooks/${webhook.id}`, headers });
  await app.server.inject({ method: 'PUT', url: `/api/webhooks/${webhook.id}`, headers, payload: { ...payload, events: ['bad'] } });
  await app.server.inject({ method: 'GET', url: '/api/webhooks', headers });
  const row = await app.services.database.db
    .selectFrom('webhooks')
    .select('secret_enc')
    .where('id', '=', webhook.id)
    .executeTakeFirstOrThrow();
  const log = lines.join('\n');
  expect(lines.length).toBeGreaterThan(0);
  expect(log).not.toContain('whsec_');
  for (const s of secrets) expect(log).not.toContain(s.slice('whsec_'.length));
  expect(log).not.toContain(row.secret_enc);
});
