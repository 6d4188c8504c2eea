import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig, ConfigError } from '../../packages/server/src/index.js';
import { ADMIN, startTestApp } from '../helpers/app.js';
import { withTestDatabase } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import type { JsonObject } from '../helpers/json-object.js';

const config = (url: string, extra: Record<string, unknown> = {}) =>
  resolveConfig({ database: { url }, security: { bcryptRounds: 4, adminUser: ADMIN, ...extra }, schemas: TEST_SCHEMAS }, {});

describe('start-up', () => {
  it('health answers without the database; ready checks it', async () => {
    const t = await startTestApp();
    try {
      const health = await t.request({ method: 'GET', url: '/api/health' });
      expect(health.json()).toEqual({ data: { status: 'ok' } });
      expect(health.headers['x-request-id']).toBeTruthy();
      const ready = await t.request({ method: 'GET', url: '/api/ready', headers: { 'x-request-id': 'trace-123' } });
      expect(ready.json()).toEqual({ data: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } });
      expect(ready.headers['x-request-id']).toBe('trace-123');
    } finally {
      await t.close();
    }
  });

  it("the server's root and the API's answer with where things are, not 404; under another basePath too", async () => {
    const t = await startTestApp();
    const moved = await startTestApp({ server: { basePath: '/cms/v1' } });
    try {
      const links = { studio: '/studio/', openapi: '/api/openapi.json', docs: '/api/docs', health: '/api/health', ready: '/api/ready' };
      for (const url of ['/', '/api', '/api/']) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual({ data: { name: 'Vellum', links } });
      }
      // Each link answers.
      for (const url of Object.values(links)) expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(200);
      const root = await moved.request({ method: 'GET', url: '/' });
      expect(root.json().data.links).toMatchObject({ openapi: '/cms/v1/openapi.json', health: '/cms/v1/health' });
      expect((await moved.request({ method: 'GET', url: '/cms/v1' })).json()).toEqual(root.json());
    } finally {
      await t.close();
      await moved.close();
    }
  });

  it('CORS is off by default and allows exactly the configured origins', async () => {
    const plain = await startTestApp();
    const open = await startTestApp({ server: { cors: ['https://studio.example'] } });
    try {
      const none = await plain.request({ method: 'GET', url: '/api/health', headers: { origin: 'https://studio.example' } });
      expect(none.headers['access-control-allow-origin']).toBeUndefined();
      const allowed = await open.request({
        method: 'OPTIONS',
        url: '/api/documents/post',
        headers: { origin: 'https://studio.example', 'access-control-request-method': 'POST' },
      });
      expect(allowed.statusCode).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://studio.example');
      const other = await open.request({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
      await open.close();
    }
  });

  it('serves the schemas publicly', async () => {
    const t = await startTestApp({ schemas: TEST_SCHEMAS });
    try {
      const res = await t.request({ method: 'GET', url: '/api/config/schemas' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((s: { name: string }) => s.name)).toEqual(['company', 'author', 'post', 'secret', 'site']);
      const post = res.json().data.find((s: { name: string }) => s.name === 'post');
      expect(post).toMatchObject({ title: 'Post', type: 'document', public: true });
      expect(post.fields.find((f: { name: string }) => f.name === 'author')).toMatchObject({ type: 'reference', to: 'author' });
    } finally {
      await t.close();
    }
  });

  it('a restart on the same database keeps data, the generated JWT secret and sessions', async () => {
    await withTestDatabase(async (db) => {
      const first = await createApp(config(db.url));
      const login = await first.server.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: ADMIN.password },
      });
      const token = login.json().data.token;
      await first.close();
      const second = await createApp(config(db.url));
      try {
        const me = await second.server.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
        expect(me.statusCode).toBe(200);
      } finally {
        await second.close();
      }
    });
  });

  it('two nodes starting together on one fresh database both come up (migrations run once)', async () => {
    await withTestDatabase(async (db) => {
      const apps = await Promise.all([createApp(config(db.url)), createApp(config(db.url))]);
      for (const app of apps) expect((await app.server.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      await Promise.all(apps.map((a) => a.close()));
    });
  });

  it('a configured secret signs tokens that another node with the same secret accepts', async () => {
    await withTestDatabase(async (db) => {
      const jwtSecret = randomBytes(32).toString('base64url');
      const a = await createApp(config(db.url, { jwtSecret }));
      const token = (
        await a.server.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } })
      ).json().data.token;
      const b = await createApp(config(db.url, { jwtSecret }));
      expect(
        (await b.server.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
      ).toBe(200);
      await a.close();
      await b.close();
    });
  });

  it('an admin password the policy refuses stops start-up with a config problem', async () => {
    await withTestDatabase(async (db) => {
      const bad = resolveConfig(
        { database: { url: db.url }, security: { bcryptRounds: 4, adminUser: { username: 'root', password: 'short' } } },
        {},
      );
      const err = await createApp(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual(['security.adminUser.password: must be at least 10 characters']);
    });
  });

  it('making a field unique when stored documents share a value fails start-up clearly', async () => {
    await withTestDatabase(async (db) => {
      const schemas = [{ name: 'tag', title: 'Tag', fields: [{ name: 'label', type: 'string' }] }];
      const first = await createApp(
        resolveConfig({ database: { url: db.url }, security: { bcryptRounds: 4, adminUser: ADMIN }, schemas }, {}),
      );
      const token = (
        await first.server.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: ADMIN.username, password: ADMIN.password },
        })
      ).json().data.token;
      for (let i = 0; i < 2; i++) {
        await first.server.inject({
          method: 'POST',
          url: '/api/documents/tag',
          headers: { authorization: `Bearer ${token}` },
          payload: { label: 'same' },
        });
      }
      await first.close();
      const unique = [{ name: 'tag', title: 'Tag', fields: [{ name: 'label', type: 'string', unique: true }] }];
      const err = await createApp(resolveConfig({ database: { url: db.url }, security: { bcryptRounds: 4 }, schemas: unique }, {})).catch(
        (e: unknown) => e,
      );
      expect((err as Error).message).toMatch(/cannot make tag_label unique/);
    });
  });
});

describe('server errors', () => {
  it('a 500 shows no internals, names the request id, and the log has the details under that id', () =>
    withTestDatabase(async (db) => {
      const lines: Array<JsonObject> = [];
      const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
      const app = await createApp(config(db.url), { logger: { level: 'info', stream } });
      try {
        // Pull the database out from under the running app: every query now fails inside the server.
        await app.services.database.close();
        const res = await app.server.inject({
          method: 'GET',
          url: '/api/documents/post?limit=5',
          headers: { 'x-request-id': 'req-500-test' },
        });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error (request id req-500-test)' } });
        expect(res.headers['x-request-id']).toBe('req-500-test');
        const logged = lines.find((l) => l.reqId === 'req-500-test' && l.err);
        expect(logged?.err?.message).toBeTruthy();
        expect(logged?.msg).toBe('request failed');
      } finally {
        await app.server.close();
      }
    }));
});

describe('published example admin password', () => {
  /** Starts and stops the app with this admin password; returns the log lines. */
  async function startUpLog(password: string): Promise<Array<JsonObject>> {
    const lines: Array<JsonObject> = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    await withTestDatabase(async (db) => {
      const app = await createApp(config(db.url, { adminUser: { ...ADMIN, password } }), { logger: { level: 'info', stream } });
      await app.close();
    });
    return lines;
  }
  const isExampleWarning = (l: JsonObject) => l.level === 40 && /security\.adminUser\.password/.test(l.msg);

  it('start-up warns in one line when the admin password is a documented example, without printing it', async () => {
    const lines = await startUpLog('change-me-please');
    expect(lines.filter(isExampleWarning)).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('change-me-please');
  });

  it('no warning once the admin has changed that password', () =>
    withTestDatabase(async (db) => {
      const example = config(db.url, { adminUser: { ...ADMIN, password: 'change-me-please' } });
      const first = await createApp(example);
      const token = (
        await first.server.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: ADMIN.username, password: 'change-me-please' },
        })
      ).json().data.token;
      const changed = await first.server.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { authorization: `Bearer ${token}` },
        payload: { currentPassword: 'change-me-please', newPassword: 'a-better-password-9' },
      });
      expect(changed.statusCode).toBe(200);
      await first.close();
      const lines: Array<JsonObject> = [];
      const second = await createApp(example, {
        logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      });
      await second.close();
      expect(lines.filter(isExampleWarning)).toEqual([]);
    }));

  it('no warning for a password that is not an example', async () => {
    const lines = await startUpLog(ADMIN.password);
    expect(lines.filter(isExampleWarning)).toEqual([]);
  });
});

describe('first-boot claim', () => {
  it('with no users and no configured admin, one claim creates the admin', async () => {
    const t = await startTestApp({ security: { adminUser: undefined } });
    try {
      const token = t.app.claimToken as string;
      expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
      expect((await t.request({ method: 'GET', url: '/api/auth/claim' })).json()).toEqual({ data: { claimable: true } });
      const wrong = await t.request({
        method: 'POST',
        url: '/api/auth/claim',
        payload: { token: 'x'.repeat(32), username: 'owner', email: 'o@example.com', password: 'owner-password-1' },
      });
      expect(wrong.statusCode).toBe(403);
      const weak = await t.request({
        method: 'POST',
        url: '/api/auth/claim',
        payload: { token, username: 'owner', email: 'o@example.com', password: 'short' },
      });
      expect(weak.statusCode).toBe(422);
      const ok = await t.request({
        method: 'POST',
        url: '/api/auth/claim',
        payload: { token, username: 'owner', email: 'o@example.com', password: 'owner-password-1' },
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().data.user).toMatchObject({ username: 'owner', role: 'admin' });
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token: ok.json().data.token })).statusCode).toBe(200);
      const again = await t.request({
        method: 'POST',
        url: '/api/auth/claim',
        payload: { token, username: 'thief', email: 't@example.com', password: 'thief-password-1' },
      });
      expect(again.statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url: '/api/auth/claim' })).json()).toEqual({ data: { claimable: false } });
    } finally {
      await t.close();
    }
  });

  it('with a configured admin there is nothing to claim', async () => {
    const t = await startTestApp();
    try {
      expect(t.app.claimToken).toBeUndefined();
      expect((await t.request({ method: 'GET', url: '/api/auth/claim' })).json()).toEqual({ data: { claimable: false } });
    } finally {
      await t.close();
    }
  });
});
