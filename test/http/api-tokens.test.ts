import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * API tokens (spec: API token resource and states, Endpoints: API tokens; docs/api.md, "API tokens"):
 * `vlm_` + 43 base62 characters, shown once, stored as sha256 only, `createdBy` always `system`,
 * revocation immediate, expiry enforced, and a caller gives a token only what it holds.
 */

const TOKEN_FORMAT = /^vlm_[0-9A-Za-z]{43}$/;
const VIEW_KEYS = ['createdAt', 'createdBy', 'expiresAt', 'id', 'lastUsedAt', 'name', 'permissions'];

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let t: TestApp;
let admin: string;
useContentApp((app, token) => ((t = app), (admin = token)));

async function createToken(app: TestApp, bearer: string, body: Record<string, unknown>) {
  return app.request({ method: 'POST', url: '/api/tokens', token: bearer, payload: body });
}

/** Creates a token as admin and returns the plaintext and the served record. */
async function adminToken(permissions: string[], extra: Record<string, unknown> = {}, app = t, bearer = admin) {
  const res = await createToken(app, bearer, { name: 'integration', permissions, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { token: string; apiToken: Record<string, unknown> & { id: string } };
}

/** Every key of a JSON value, at any depth. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  return [];
}

describe('POST /api/tokens', () => {
  it('returns 201 {data: {token, apiToken}}: the plaintext once, and the record without a hash', async () => {
    const res = await createToken(t, admin, { name: 'ci deploy', permissions: ['post:read', 'media:read'] });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['apiToken', 'token']);
    expect(data.token).toMatch(TOKEN_FORMAT);
    expect(Object.keys(data.apiToken).sort()).toEqual(VIEW_KEYS);
    expect(data.apiToken).toEqual({
      id: expect.any(String),
      name: 'ci deploy',
      permissions: ['post:read', 'media:read'],
      expiresAt: null,
      createdBy: 'system',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      lastUsedAt: null,
    });
    expect(allKeys(res.json()).filter((k) => /hash/i.test(k))).toEqual([]);
    expect(res.body).not.toContain(sha256(data.token));
  });

  it('gives every token a different plaintext', async () => {
    const a = await adminToken(['post:read']);
    const b = await adminToken(['post:read']);
    expect(a.token).not.toBe(b.token);
    expect(a.apiToken.id).not.toBe(b.apiToken.id);
  });

  it('stores only sha256(token), never the plaintext', async () => {
    const { token, apiToken } = await adminToken(['post:read']);
    const row = await t.app.services.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', apiToken.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
  });

  it('records createdBy as the literal "system", not the caller', async () => {
    const { apiToken } = await adminToken(['post:read']);
    expect(apiToken.createdBy).toBe('system');
    const row = await t.app.services.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', apiToken.id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe('system');
  });

  it('keeps a future expiresAt as an ISO 8601 UTC timestamp, and the token works', async () => {
    const future = new Date(Date.now() + 3_600_000);
    const { token, apiToken } = await adminToken(['post:read'], { expiresAt: future.toISOString() });
    expect(apiToken.expiresAt).toBe(future.toISOString());
    const res = await t.request({ method: 'GET', url: '/api/collections/post', token });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses an expiresAt in the past: 422 on expiresAt', async () => {
    const res = await createToken(t, admin, {
      name: 'old',
      permissions: ['post:read'],
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'expiresAt' })] });
  });

  it('refuses an expiresAt that is not a timestamp: 422', async () => {
    const res = await createToken(t, admin, { name: 'bad', permissions: ['post:read'], expiresAt: 'next tuesday' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'expiresAt' })] });
  });

  for (const bogus of ['bogus', 'media:fly', 'nosuchschema:read']) {
    it(`refuses the unknown permission ${JSON.stringify(bogus)}: 422 on permissions.N`, async () => {
      const res = await createToken(t, admin, { name: 'x', permissions: ['content:read', bogus] });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'permissions.1' })] });
    });
  }

  it('names every unknown permission by its index', async () => {
    const res = await createToken(t, admin, { name: 'x', permissions: ['bogus', 'post:read', 'media:fly', 'nosuchschema:read'] });
    expect(res.statusCode, res.body).toBe(422);
    const fields = res.json().error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(['permissions.0', 'permissions.2', 'permissions.3']);
  });

  it('lets admin grant any permission, content:publish included', async () => {
    const { apiToken } = await adminToken(['content:publish', 'tokens:write', 'post:*']);
    expect(apiToken.permissions).toEqual(['content:publish', 'tokens:write', 'post:*']);
  });
});

describe('using a token', () => {
  it('works as a bearer, with exactly its own permissions', async () => {
    const { token } = await adminToken(['post:read']);
    expect((await t.request({ method: 'GET', url: '/api/collections/post', token })).statusCode).toBe(200);
    const write = await t.request({ method: 'POST', url: '/api/collections/post', token, payload: { title: 'x' } });
    expect(write.statusCode, write.body).toBe(403);
    expect(write.json().error.code).toBe('FORBIDDEN');
    expect((await t.request({ method: 'GET', url: '/api/collections/author', token })).statusCode).toBe(403);
  });

  it('a near-miss of a real token is 401', async () => {
    const { token } = await adminToken(['post:read']);
    const wrong = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    const res = await t.request({ method: 'GET', url: '/api/collections/post', token: wrong });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /api/tokens', () => {
  it('lists tokens with meta, never the plaintext nor anything named hash', async () => {
    const { token, apiToken } = await adminToken(['post:read']);
    const res = await t.request({ method: 'GET', url: '/api/tokens', token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total: expect.any(Number), limit: 20, offset: 0 });
    expect(body.meta.total).toBeGreaterThanOrEqual(1);
    expect(body.data.length).toBe(Math.min(body.meta.total, 20));
    expect(body.data.find((x: { id: string }) => x.id === apiToken.id)).toEqual(apiToken);
    for (const item of body.data) expect(Object.keys(item).sort()).toEqual(VIEW_KEYS);
    expect(allKeys(body).filter((k) => /hash/i.test(k))).toEqual([]);
    expect(res.body).not.toContain(token);
    expect(res.body).not.toContain(sha256(token));
  });

  it('pages with limit and offset', async () => {
    await adminToken(['post:read']);
    await adminToken(['post:read']);
    const first = await t.request({ method: 'GET', url: '/api/tokens?limit=1&offset=0', token: admin });
    const second = await t.request({ method: 'GET', url: '/api/tokens?limit=1&offset=1', token: admin });
    expect(first.json().meta).toMatchObject({ limit: 1, offset: 0 });
    expect(second.json().meta).toMatchObject({ limit: 1, offset: 1 });
    expect(first.json().data).toHaveLength(1);
    expect(second.json().data).toHaveLength(1);
    expect(first.json().data[0].id).not.toBe(second.json().data[0].id);
  });
});

describe('DELETE /api/tokens/:id', () => {
  it('revokes: {success: true}, and the token stops working at once', async () => {
    const { token, apiToken } = await adminToken(['post:read']);
    // Used once first, so any per-node cache holds it.
    expect((await t.request({ method: 'GET', url: '/api/collections/post', token })).statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/api/tokens/${apiToken.id}`, token: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ success: true });
    const after = await t.request({ method: 'GET', url: '/api/collections/post', token });
    expect(after.statusCode, after.body).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
    const list = await t.request({ method: 'GET', url: '/api/tokens?limit=100', token: admin });
    expect(list.json().data.map((x: { id: string }) => x.id)).not.toContain(apiToken.id);
  });

  it('is 404 for an unknown id, and for one already revoked', async () => {
    const unknown = await t.request({ method: 'DELETE', url: '/api/tokens/no-such-token', token: admin });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    const { apiToken } = await adminToken(['post:read']);
    expect((await t.request({ method: 'DELETE', url: `/api/tokens/${apiToken.id}`, token: admin })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/tokens/${apiToken.id}`, token: admin })).statusCode).toBe(404);
  });
});

describe('GET and PUT /api/tokens/:id', () => {
  for (const method of ['GET', 'PUT'] as const) {
    it(`${method} is always 501 NOT_IMPLEMENTED`, async () => {
      const { apiToken } = await adminToken(['post:read']);
      for (const id of [apiToken.id, 'no-such-token']) {
        const res = await t.request({
          method,
          url: `/api/tokens/${id}`,
          token: admin,
          payload: method === 'PUT' ? { name: 'renamed' } : undefined,
        });
        expect(res.statusCode, res.body).toBe(501);
        expect(res.json().error.code).toBe('NOT_IMPLEMENTED');
      }
    });
  }
});

describe('who may manage tokens', () => {
  const valid = { name: 'x', permissions: ['post:read'] };
  const calls = [
    { label: 'GET /api/tokens', method: 'GET', url: () => '/api/tokens' },
    { label: 'POST /api/tokens', method: 'POST', url: () => '/api/tokens', payload: valid },
    { label: 'DELETE /api/tokens/:id', method: 'DELETE', url: (id: string) => `/api/tokens/${id}` },
  ] as const;

  for (const call of calls) {
    it(`anonymous ${call.label} → 401 UNAUTHORIZED`, async () => {
      const { apiToken } = await adminToken(['post:read']);
      const res = await t.request({
        method: call.method,
        url: call.url(apiToken.id),
        payload: 'payload' in call ? call.payload : undefined,
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    });

    it(`viewer (no tokens:* permission) ${call.label} → 403 FORBIDDEN`, async () => {
      const { apiToken } = await adminToken(['post:read']);
      const viewer = await t.userToken('viewer');
      const res = await t.request({
        method: call.method,
        url: call.url(apiToken.id),
        token: viewer,
        payload: 'payload' in call ? call.payload : undefined,
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    });
  }

  it('tokens:read, tokens:write and tokens:delete each open exactly their endpoint', async () => {
    const [reader, writer, deleter] = await Promise.all([
      t.userToken('viewer', ['tokens:read']),
      t.userToken('viewer', ['tokens:write']),
      t.userToken('viewer', ['tokens:delete']),
    ]);
    const status = async (bearer: string, method: 'GET' | 'POST' | 'DELETE') => {
      const { apiToken } = await adminToken(['post:read']);
      const url = method === 'DELETE' ? `/api/tokens/${apiToken.id}` : '/api/tokens';
      return (await t.request({ method, url, token: bearer, payload: method === 'POST' ? valid : undefined })).statusCode;
    };
    expect([await status(reader, 'GET'), await status(reader, 'POST'), await status(reader, 'DELETE')]).toEqual([200, 403, 403]);
    expect([await status(writer, 'GET'), await status(writer, 'POST'), await status(writer, 'DELETE')]).toEqual([403, 201, 403]);
    expect([await status(deleter, 'GET'), await status(deleter, 'POST'), await status(deleter, 'DELETE')]).toEqual([403, 403, 200]);
  });

  it('an API token carrying tokens:read may list tokens', async () => {
    const { token } = await adminToken(['tokens:read']);
    const res = await t.request({ method: 'GET', url: '/api/tokens', token });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('a non-admin gives a token only what it holds', () => {
  let viewer: string;
  beforeAll(async () => {
    viewer = await t.userToken('viewer', ['tokens:write']);
  });

  for (const denied of [
    ['content:publish'],
    ['content:write'],
    ['post:write'],
    ['post:*'],
    ['content:*'],
    ['tokens:read'],
    ['content:read', 'content:publish'],
  ]) {
    it(`viewer + tokens:write cannot grant ${denied.join(', ')} → 403`, async () => {
      const before = await t.app.services.database.db.selectFrom('api_tokens').select('id').execute();
      const res = await createToken(t, viewer, { name: 'escalate', permissions: denied });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      const after = await t.app.services.database.db.selectFrom('api_tokens').select('id').execute();
      expect(after.length, 'no token was stored').toBe(before.length);
    });
  }

  for (const granted of [['content:read'], ['post:read'], ['tokens:write'], ['content:read', 'post:read', 'media:read']]) {
    it(`viewer + tokens:write can grant ${granted.join(', ')} → 201`, async () => {
      const res = await createToken(t, viewer, { name: 'delegated', permissions: granted });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.apiToken).toMatchObject({ permissions: granted, createdBy: 'system' });
    });
  }

  it('the delegated post:read token reads posts and cannot write them', async () => {
    const res = await createToken(t, viewer, { name: 'delegated', permissions: ['post:read'] });
    const token = res.json().data.token;
    expect((await t.request({ method: 'GET', url: '/api/collections/post', token })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/collections/post', token, payload: { title: 'x' } })).statusCode).toBe(403);
  });
});

describe('expiry (frozen clock)', () => {
  let clocked: TestApp;
  let fakeNow = new Date('2030-01-01T00:00:00.000Z');
  let bearer: string;
  beforeAll(async () => {
    clocked = await startTestApp({ schemas: TEST_SCHEMAS }, { now: () => fakeNow });
    bearer = await clocked.login(ADMIN.username, ADMIN.password);
  });
  afterAll(() => clocked?.close());

  const later = (ms: number) => new Date(fakeNow.getTime() + ms);

  it('an expiresAt before the service clock is refused (422), one after it accepted', async () => {
    const past = await createToken(clocked, bearer, { name: 'x', permissions: ['post:read'], expiresAt: later(-1000).toISOString() });
    expect(past.statusCode, past.body).toBe(422);
    expect(past.json().error.details).toEqual([expect.objectContaining({ field: 'expiresAt' })]);
    const future = await createToken(clocked, bearer, { name: 'x', permissions: ['post:read'], expiresAt: later(1000).toISOString() });
    expect(future.statusCode, future.body).toBe(201);
  });

  it('a token works until expiresAt, and is refused with 401 once it has passed', async () => {
    const expiresAt = later(5 * 60_000);
    const { token, apiToken } = await adminToken(['post:read'], { expiresAt: expiresAt.toISOString() }, clocked, bearer);
    expect(apiToken.expiresAt).toBe(expiresAt.toISOString());

    fakeNow = new Date(expiresAt.getTime() - 1000);
    const before = await clocked.request({ method: 'GET', url: '/api/collections/post', token });
    expect(before.statusCode, before.body).toBe(200);

    fakeNow = new Date(expiresAt.getTime() + 1000);
    const after = await clocked.request({ method: 'GET', url: '/api/collections/post', token });
    expect(after.statusCode, after.body).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
    // Expired is still a 401 on public reads: a bad credential is never silently anonymous.
    const publicRead = await clocked.request({ method: 'GET', url: '/api/documents/post', token });
    expect(publicRead.statusCode).toBe(401);
  });

  it('lastUsedAt records the service clock when the token is used', async () => {
    const { token, apiToken } = await adminToken(['post:read'], {}, clocked, bearer);
    const usedAt = fakeNow.toISOString();
    expect((await clocked.request({ method: 'GET', url: '/api/collections/post', token })).statusCode).toBe(200);
    const list = await clocked.request({ method: 'GET', url: '/api/tokens?limit=100', token: bearer });
    const served = list.json().data.find((x: { id: string }) => x.id === apiToken.id);
    expect(served.lastUsedAt).toBe(usedAt);
  });
});
