import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { pdf } from '../helpers/media-fixtures.js';

/**
 * Every caller × every media endpoint, against the policy's expectations: the spec's default
 * access (reads public, writes signed in), the role defaults, explicit user permissions and API
 * token permissions. Then the same reads with `media.publicRead: false`.
 */
type Action = 'list' | 'get' | 'file' | 'upload' | 'edit' | 'delete';
const ACTIONS: Action[] = ['list', 'get', 'file', 'upload', 'edit', 'delete'];

const ok: Record<Action, number> = { list: 200, get: 200, file: 200, upload: 201, edit: 200, delete: 200 };
const expectations: Record<string, Partial<Record<Action, number>>> = {
  anonymous: { upload: 401, edit: 401, delete: 401 },
  admin: {},
  editor: {},
  author: { edit: 403, delete: 403 },
  writer: { edit: 403, delete: 403 },
  viewer: { upload: 403, edit: 403, delete: 403 },
  'viewer+media:edit': { upload: 403, delete: 403 },
  'writer+media:delete': { edit: 403 },
  'token media:upload': { edit: 403, delete: 403 },
  'token media:edit,media:delete': { upload: 403 },
  'token content:*': { upload: 403, edit: 403, delete: 403 },
};

async function multipart(file: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') as string };
}

async function callers(t: TestApp, adminToken: string): Promise<Map<string, string | undefined>> {
  const bearers = new Map<string, string | undefined>([
    ['anonymous', undefined],
    ['admin', adminToken],
  ]);
  for (const role of ['editor', 'author', 'writer', 'viewer']) bearers.set(role, await t.userToken(role));
  bearers.set('viewer+media:edit', await t.userToken('viewer', ['media:edit']));
  bearers.set('writer+media:delete', await t.userToken('writer', ['media:delete']));
  for (const name of ['token media:upload', 'token media:edit,media:delete', 'token content:*']) {
    const permissions = name.slice('token '.length).split(',');
    const res = await t.request({ method: 'POST', url: '/api/tokens', payload: { name, permissions }, token: adminToken });
    expect(res.statusCode, res.body).toBe(201);
    bearers.set(name, res.json().data.token);
  }
  return bearers;
}

describe('media access matrix', () => {
  let t: TestApp;
  let adminToken: string;
  let bearers: Map<string, string | undefined>;
  let dir: string;

  const upload = async (token: string | undefined) => {
    const { payload, contentType } = await multipart(pdf(), 'm.pdf');
    return t.request({ method: 'POST', url: '/api/media', payload, headers: { 'content-type': contentType }, token });
  };
  const fresh = async () => (await upload(adminToken)).json().data as { _id: string; url: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-media-matrix-'));
    t = await startTestApp({ media: { dir } });
    adminToken = await t.login(ADMIN.username, ADMIN.password);
    bearers = await callers(t, adminToken);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [caller, overrides] of Object.entries(expectations)) {
    for (const action of ACTIONS) {
      const expected = overrides[action] ?? ok[action];
      it(`${caller} → ${action}: ${expected}`, async () => {
        const token = bearers.get(caller);
        // Each cell acts on its own media item, so a delete cannot change another cell.
        const m = await fresh();
        const res = await {
          list: () => t.request({ method: 'GET', url: '/api/media', token }),
          get: () => t.request({ method: 'GET', url: `/api/media/${m._id}`, token }),
          file: () => t.request({ method: 'GET', url: m.url, token }),
          upload: () => upload(token),
          edit: () => t.request({ method: 'PATCH', url: `/api/media/${m._id}`, payload: { alt: caller }, token }),
          delete: () => t.request({ method: 'DELETE', url: `/api/media/${m._id}`, token }),
        }[action]();
        expect(res.statusCode, res.body.slice(0, 200)).toBe(expected);
        if (expected >= 400) expect(res.json().error.code).toBe(expected === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
      });
    }
  }
});

describe('media access with media.publicRead: false', () => {
  let t: TestApp;
  let adminToken: string;
  let bearers: Map<string, string | undefined>;
  let dir: string;
  let m: { _id: string; url: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-media-private-'));
    t = await startTestApp({ media: { dir, publicRead: false } });
    adminToken = await t.login(ADMIN.username, ADMIN.password);
    bearers = await callers(t, adminToken);
    const { payload, contentType } = await multipart(pdf(), 'private.pdf');
    m = (
      await t.request({ method: 'POST', url: '/api/media', payload, headers: { 'content-type': contentType }, token: adminToken })
    ).json().data;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Every role holds media:read; tokens only what they were given.
  const readers: Record<string, number> = {
    anonymous: 401,
    admin: 200,
    editor: 200,
    author: 200,
    writer: 200,
    viewer: 200,
    'token media:upload': 403,
    'token media:edit,media:delete': 403,
    'token content:*': 403,
  };
  for (const [caller, status] of Object.entries(readers)) {
    it(`${caller} reads: ${status}`, async () => {
      const token = bearers.get(caller);
      for (const url of ['/api/media', `/api/media/${m._id}`, m.url]) {
        const res = await t.request({ method: 'GET', url, token });
        expect(res.statusCode, url).toBe(status);
      }
    });
  }

  it('serves private files with private caching', async () => {
    const res = await t.request({ method: 'GET', url: m.url, token: adminToken });
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });
});
