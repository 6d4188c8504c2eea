import { describe, expect, it } from 'vitest';
import { createDocument } from '../../packages/server/src/domain/documents/create-document.js';
import type { Principal } from '../../packages/server/src/domain/access/principal.js';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { useContentApp } from '../helpers/use-content-app.js';
import { spyQueries } from '../helpers/query-spy.js';
import type { JsonObject } from '../helpers/json-object.js';

let t: TestApp;
let admin: string;
const SYSTEM: Principal = { kind: 'user', id: 'seed', role: 'admin', permissions: new Set() };
const titlesOf = (res: { json(): JsonObject }) => res.json().data.map((d: { name: string }) => d.name);
const titles = (res: { json(): JsonObject }) => res.json().data.map((d: { title: string }) => d.title);

useContentApp((app, token) => ((t = app), (admin = token)));

describe('response cache', () => {
  it('a draft write keeps the anonymous rendering (nothing it shows changed) and refreshes readers of drafts', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/documents/company',
      token: admin,
      payload: { name: 'Cached Co', _status: 'published' },
    });
    const id = created.json().data._id as string;
    const url = '/api/documents/company?filter[name]=Cached Co';
    expect(titlesOf(await t.request({ method: 'GET', url }))).toEqual(['Cached Co']);
    expect((await t.request({ method: 'GET', url, token: admin })).json().data[0]._draft).toBeUndefined();
    const draft = await t.request({
      method: 'PATCH',
      url: `/api/documents/company/${id}?draft=true`,
      token: admin,
      payload: { name: 'Draft Co' },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    let queries = 0;
    const restore = spyQueries(t, () => void queries++);
    try {
      expect(titlesOf(await t.request({ method: 'GET', url }))).toEqual(['Cached Co']);
      expect(queries).toBe(0); // served from the cache: an autosave does not empty the public caches
    } finally {
      restore();
    }
    // The reader of every status sees the pending draft's marker at once.
    expect((await t.request({ method: 'GET', url, token: admin })).json().data[0]._draft).toMatchObject({ _rev: 1 });
  });

  it('a write is visible to the next anonymous read (no stale page)', async () => {
    const url = '/api/documents/company?filter[country]=fr';
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
    const created = await t.request({
      method: 'POST',
      url: '/api/documents/company',
      token: admin,
      payload: { name: 'Fr', country: 'fr', _status: 'published' },
    });
    expect(created.statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(1);
    await t.request({ method: 'PATCH', url: `/api/documents/company/${created.json().data._id}`, token: admin, payload: { name: 'Fr 2' } });
    expect((await t.request({ method: 'GET', url })).json().data[0].name).toBe('Fr 2');
    await t.request({ method: 'DELETE', url: `/api/documents/company/${created.json().data._id}`, token: admin });
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
  });

  it('signed-in readers never get the anonymous rendering', async () => {
    await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Draft Co', country: 'us' } });
    const url = '/api/documents/company?filter[country]=us';
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
    expect((await t.request({ method: 'GET', url, token: admin })).json().meta.total).toBe(1);
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
  });

  it('callers are still authenticated on a cached URL: a revoked session gets 401', async () => {
    const session = (
      await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } })
    ).json().data;
    const url = '/api/documents/company?limit=3';
    expect((await t.request({ method: 'GET', url, token: session.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url, token: admin })).statusCode).toBe(200);
    // Replaying a spent refresh token revokes the session.
    await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } });
    await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } });
    expect((await t.request({ method: 'GET', url, token: session.token })).statusCode).toBe(401);
  });

  it('callers with other read scopes get their own answer', async () => {
    const viewer = await t.userToken('viewer');
    const apiUser = await t.userToken('api');
    await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Scoped draft', country: 'de' } });
    const url = '/api/documents/company?filter[country]=de';
    expect((await t.request({ method: 'GET', url, token: admin })).json().meta.total).toBe(1);
    expect((await t.request({ method: 'GET', url, token: viewer })).json().meta.total).toBe(1);
    expect((await t.request({ method: 'GET', url, token: apiUser })).json().meta.total).toBe(0);
    expect((await t.request({ method: 'GET', url })).json().meta.total).toBe(0);
    const collections = '/api/collections/company?filter[country]=de';
    expect((await t.request({ method: 'GET', url: collections, token: viewer })).json().meta.total).toBe(1);
    expect((await t.request({ method: 'GET', url: collections, token: apiUser })).statusCode).toBe(403);
  });

  it('a cached single document still answers If-None-Match with 304 and carries its ETag', async () => {
    const doc = (
      await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Etag Co', _status: 'published' } })
    ).json().data;
    const url = `/api/documents/company/${doc._id}`;
    const first = await t.request({ method: 'GET', url });
    const second = await t.request({ method: 'GET', url });
    expect(second.headers.etag).toBe('"1"');
    expect(second.body).toBe(first.body);
    expect((await t.request({ method: 'GET', url, headers: { 'if-none-match': '"1"' } })).statusCode).toBe(304);
  });
});

describe('list totals and deep pages', () => {
  it('meta.total follows writes', async () => {
    const url = '/api/documents/author?limit=1';
    const before = (await t.request({ method: 'GET', url, token: admin })).json().meta.total;
    const a = (await t.request({ method: 'POST', url: '/api/documents/author', token: admin, payload: { name: 'Counted' } })).json().data;
    expect((await t.request({ method: 'GET', url, token: admin })).json().meta.total).toBe(before + 1);
    await t.request({ method: 'DELETE', url: `/api/documents/author/${a._id}`, token: admin });
    expect((await t.request({ method: 'GET', url, token: admin })).json().meta.total).toBe(before);
  });

  it('pages past offset 1000 (anchored) continue exactly where the previous page ended, also after writes', async () => {
    for (let i = 0; i < 1105; i++) {
      await createDocument(t.app.services, SYSTEM, {
        type: 'post',
        mode: 'documents',
        body: { title: `Deep ${String(i).padStart(4, '0')}`, _status: 'published' },
      });
    }
    const page = (offset: number, limit: number, order = 'asc') =>
      t.request({
        method: 'GET',
        url: `/api/documents/post?filter[title][startsWith]=Deep&orderBy=_createdAt&order=${order}&limit=${limit}&offset=${offset}`,
        token: admin,
      });
    const around = titles(await page(990, 30));
    expect(around[0]).toBe('Deep 0990');
    expect(around[29]).toBe('Deep 1019');
    // The same rows, reached from the anchor at 1000 (twice: computed, then reused).
    expect(titles(await page(1000, 20))).toEqual(around.slice(10));
    expect(titles(await page(1005, 15))).toEqual(around.slice(15));
    expect(titles(await page(1100, 10))).toEqual(['Deep 1100', 'Deep 1101', 'Deep 1102', 'Deep 1103', 'Deep 1104']);
    const desc = titles(await page(1000, 5, 'desc'));
    expect(desc).toEqual(['Deep 0104', 'Deep 0103', 'Deep 0102', 'Deep 0101', 'Deep 0100']);
    // A write moves every later row by one; the anchors are rebuilt, not reused.
    await createDocument(t.app.services, SYSTEM, { type: 'post', mode: 'documents', body: { title: 'Deep newest', _status: 'published' } });
    expect(titles(await page(1000, 5, 'desc'))).toEqual(['Deep 0105', 'Deep 0104', 'Deep 0103', 'Deep 0102', 'Deep 0101']);
    const meta = (await page(1000, 5, 'desc')).json().meta;
    expect(meta).toEqual({ total: 1106, limit: 5, offset: 1000, nextCursor: expect.any(String) });
  });
});
