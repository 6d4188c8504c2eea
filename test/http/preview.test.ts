import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { importJwtKey } from '../../packages/server/src/domain/identity/access-tokens.js';
import { signPreviewToken } from '../../packages/server/src/domain/identity/preview-tokens.js';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { openStream, payloads } from '../helpers/event-stream.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Preview tokens (docs/preview.md): `POST …/preview` issues a read-only bearer and fills the
 * schema's preview URL from the pending draft; the token reads documents (drafts included), media
 * and `/events` of the types its issuer could read, and nothing else.
 */
const TEMPLATE = 'https://site.example/blog/{slug.current}?preview={token}&t={title}';
const SCHEMAS = TEST_SCHEMAS.map((s) => (s.name === 'post' ? { ...s, preview: { url: TEMPLATE } } : s));
const TTL_MS = 10 * 60_000;

let t: TestApp;
let admin: string;
const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-preview-'));
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

useAdminApp(
  () => startTestApp({ schemas: SCHEMAS, documents: { previewTokenTtl: '10m' }, media: { dir: mediaDir, publicRead: false } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) =>
  t.request({ method, url, token, payload });

/** A published post with a pending draft: the live title differs from the draft's. */
async function postWithDraft(live: string, draft: string) {
  const doc = await postDocument(t, admin, 'post', { title: live, _status: 'published' });
  const id = doc._id as string;
  const res = await req('PATCH', `/api/documents/post/${id}?draft=true`, admin, { title: draft, slug: { current: `${id}-draft` } });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

/** `token` null: anonymous. */
async function issue(type: string, id: string, token: string | null = admin, mount = 'documents') {
  return req('POST', `/api/${mount}/${type}/${id}/preview`, token ?? undefined);
}

async function previewToken(id: string, token = admin): Promise<string> {
  const res = await issue('post', id, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.token;
}

describe('POST …/preview', () => {
  it('answers 201 with a token, its expiry and the template filled from the pending draft', async () => {
    const id = await postWithDraft('Live page', 'Draft & more');
    const before = Date.now();
    const res = await issue('post', id);
    expect(res.statusCode, res.body).toBe(201);
    const { token, url, expiresAt } = res.json().data;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(url).toBe(`https://site.example/blog/${id}-draft?preview=${encodeURIComponent(token)}&t=Draft%20%26%20more`);
    const lifetime = Date.parse(expiresAt) - before;
    expect(lifetime).toBeGreaterThan(TTL_MS - 5_000);
    expect(lifetime).toBeLessThanOrEqual(TTL_MS + 1_000);
  });

  it('fills the template from the main version when there is no pending draft, on /collections too', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Only draft' });
    const res = await issue('post', doc._id as string, admin, 'collections');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.url).toMatch(/^https:\/\/site\.example\/blog\/only-draft\?preview=.+&t=Only%20draft$/);
  });

  it('has no url when the schema has no preview template', async () => {
    const author = await postDocument(t, admin, 'author', { name: 'Ann' });
    const res = await issue('author', author._id as string);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).not.toHaveProperty('url');
    expect(res.json().data.token).toEqual(expect.any(String));
  });

  it('GET /config/schemas shows the template of the schemas that have one', async () => {
    const res = await req('GET', '/api/config/schemas');
    const byName = new Map(res.json().data.map((s: { name: string }) => [s.name, s]));
    expect(byName.get('post')).toMatchObject({ preview: { url: TEMPLATE } });
    expect(byName.get('author')).not.toHaveProperty('preview');
  });

  it('404 for an unknown document or type; anonymous 401; without read permission 403', async () => {
    const id = await postWithDraft('Guarded', 'Guarded draft');
    expect((await issue('post', 'no-such-document')).statusCode).toBe(404);
    expect((await issue('nosuch', id)).statusCode).toBe(404);
    const anonymous = await issue('post', id, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('UNAUTHORIZED');
    const noRead = await issue('post', id, await t.userToken('api', ['author:read']));
    expect(noRead.statusCode).toBe(403);
    expect(noRead.json().error.code).toBe('FORBIDDEN');
  });
});

describe('reading with a preview token', () => {
  it('reads the pending draft with perspective=drafts, the main version without, and lists', async () => {
    const id = await postWithDraft('Live read', 'Draft read');
    const token = await previewToken(id);

    const draft = await req('GET', `/api/documents/post/${id}?perspective=drafts`, token);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().data).toMatchObject({ _id: id, _version: 'draft', title: 'Draft read' });
    const main = await req('GET', `/api/documents/post/${id}`, token);
    expect(main.json().data).toMatchObject({ _id: id, title: 'Live read' });
    const published = await req('GET', `/api/documents/post/${id}?perspective=published`, token);
    expect(published.json().data).toMatchObject({ _version: 'main', title: 'Live read' });

    const list = await req('GET', `/api/collections/post?perspective=drafts&filter[title]=Draft read`, token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((d: { _id: string }) => d._id)).toEqual([id]);
    // Drafts that are not published are readable too: the token reads every status of the type.
    const unpublished = await postDocument(t, admin, 'post', { title: 'Never published' });
    const byId = await req('GET', `/api/collections/post/${unpublished._id}`, token);
    expect(byId.statusCode, byId.body).toBe(200);
  });

  it('reads media while media reads are not public', async () => {
    const token = await previewToken(await postWithDraft('Media', 'Media draft'));
    expect((await req('GET', '/api/media', undefined)).statusCode).toBe(401);
    const media = await req('GET', '/api/media', token);
    expect(media.statusCode, media.body).toBe(200);
  });

  it('reads only the types its issuer could read when it was issued', async () => {
    const issuer = await t.userToken('api', ['post:read']);
    const id = await postWithDraft('Typed', 'Typed draft');
    const token = await previewToken(id, issuer);
    expect((await req('GET', `/api/collections/post/${id}?perspective=drafts`, token)).statusCode).toBe(200);
    const author = await postDocument(t, admin, 'author', { name: 'Hidden' });
    expect((await req('GET', `/api/collections/author/${author._id}`, token)).statusCode).toBe(403);
    expect((await req('GET', `/api/documents/author/${author._id}?perspective=drafts`, token)).statusCode).toBe(403);
  });

  it('opens /events (perspective=drafts too) and sees draft events of its types', async () => {
    const id = await postWithDraft('Streamed', 'Streamed draft');
    const token = await previewToken(id);
    const stream = await openStream(t, { token, query: 'types=post&events=document.draft.updated&perspective=drafts' });
    try {
      expect(stream.status).toBe(200);
      const res = await req('PATCH', `/api/documents/post/${id}?draft=true`, admin, { title: 'Streamed again' });
      expect(res.statusCode, res.body).toBe(200);
      const [event] = payloads(await stream.waitForMessages(1));
      expect(event).toMatchObject({ type: 'document.draft.updated' });
      expect(JSON.stringify(event)).toContain('Streamed again');
    } finally {
      stream.close();
    }
  });
});

describe('what a preview token cannot do', () => {
  it('writes nothing: 403 on every document write, publish, draft, preview and revision route', async () => {
    const id = await postWithDraft('Locked', 'Locked draft');
    const token = await previewToken(id);
    const base = `/api/documents/post/${id}`;
    // Admin reads every type and media as the token does: a cached revisions page must not answer it.
    expect((await req('GET', `${base}/revisions`, admin)).statusCode).toBe(200);
    const refused: Array<[Parameters<typeof req>[0], string, Record<string, unknown>?]> = [
      ['POST', '/api/documents/post', { title: 'New' }],
      ['POST', '/api/collections/post', { title: 'New' }],
      ['PATCH', base, { title: 'Changed' }],
      ['PATCH', `${base}?draft=true`, { title: 'Changed' }],
      ['PUT', base, { title: 'Changed' }],
      ['DELETE', base],
      ['DELETE', `${base}/draft`],
      ['POST', `${base}/publish`, {}],
      ['POST', `${base}/unpublish`],
      ['POST', `${base}/preview`],
      ['GET', `${base}/revisions`],
      ['POST', `${base}/revisions/1/restore`],
    ];
    for (const [method, url, payload] of refused) {
      const res = await req(method, url, token, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    const after = await req('GET', `${base}?perspective=drafts`, admin);
    expect(after.json().data).toMatchObject({ title: 'Locked draft', _version: 'draft' });
  });

  it('is refused by the account, user, token, webhook, settings, audit and media-write routes', async () => {
    const token = await previewToken(await postWithDraft('Closed', 'Closed draft'));
    const refused: Array<[Parameters<typeof req>[0], string, Record<string, unknown>?]> = [
      ['GET', '/api/auth/me'],
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: 'x', email: 'x@example.com', password: 'long-enough-pass' }],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens', { name: 'x', permissions: ['post:read'] }],
      ['GET', '/api/webhooks'],
      ['GET', '/api/config/settings'],
      ['PUT', '/api/config/settings', {}],
      ['GET', '/api/audit'],
      ['POST', '/api/auth/change-password', { currentPassword: 'a', newPassword: 'b' }],
      ['DELETE', '/api/media/nosuch'],
    ];
    for (const [method, url, payload] of refused) {
      const res = await req(method, url, token, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
  });

  it('an expired, forged or over-long token is 401 like any bad bearer', async () => {
    const id = await postWithDraft('Expiring', 'Expiring draft');
    const svc = t.app.services;
    const issuer = svc.config.security.issuer;
    const claims = { sub: 'someone', types: ['post'] };
    const url = `/api/documents/post/${id}?perspective=drafts`;

    const expired = await signPreviewToken(svc.jwtKey, issuer, claims, new Date(Date.now() - 2 * TTL_MS), TTL_MS);
    const res = await req('GET', url, expired.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Token expired' });

    const otherKey = await importJwtKey(randomBytes(32));
    const forged = await signPreviewToken(otherKey, issuer, claims, new Date(), TTL_MS);
    expect((await req('GET', url, forged.token)).statusCode).toBe(401);

    // Longer than documents.previewTokenTtl: not a token this configuration issues.
    const long = await signPreviewToken(svc.jwtKey, issuer, claims, new Date(), 24 * 60 * 60_000);
    expect((await req('GET', url, long.token)).statusCode).toBe(401);

    // A well-made one with the same key passes: the refusals above are about the token, not the key.
    const good = await signPreviewToken(svc.jwtKey, issuer, claims, new Date(), TTL_MS);
    expect((await req('GET', url, good.token)).statusCode).toBe(200);
  });
});
