import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

/** Pending drafts of published documents (docs/drafts.md): writes, reads by id, ETags, discard, delete protection. */
let t: TestApp;
let admin: string;
let writer: string;

useContentApp((app, token) => {
  t = app;
  admin = token;
});

const published = (title: string, extra: Record<string, unknown> = {}) =>
  postDocument(t, admin, 'post', { title, _status: 'published', ...extra });
const url = (id: string, query = '') => `/api/documents/post/${id}${query}`;
/** `token` null: anonymous. */
const get = (id: string, query = '', token: string | null = admin) =>
  t.request({ method: 'GET', url: url(id, query), token: token ?? undefined });

async function writerToken(): Promise<string> {
  if (!writer) {
    await createUser(t, admin, { username: 'draftwriter', password: 'correct horse battery', role: 'writer' });
    writer = await t.login('draftwriter', 'correct horse battery');
  }
  return writer;
}

describe('draft writes', () => {
  it('PATCH ?draft=true on a published document writes its pending draft; the main version keeps serving', async () => {
    const doc = await published('Live title');
    const res = await t.request({
      method: 'PATCH',
      url: url(doc._id as string, '?draft=true'),
      token: admin,
      payload: { title: 'Unfinished' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ _id: doc._id, _version: 'draft', _status: 'published', _rev: 1, title: 'Unfinished' });
    expect(res.headers.etag).toBe('"d1"');

    // The public read is the main version, unchanged.
    const live = await get(doc._id as string, '', null);
    expect(live.json().data).toMatchObject({ _rev: 1, title: 'Live title' });
    expect(live.json().data._draft).toBeUndefined();
    expect(live.headers.etag).toBe('"1"');
    // A reader with permission sees that a draft is pending.
    const marked = await get(doc._id as string);
    expect(marked.json().data._draft).toMatchObject({ _rev: 1 });
    expect(marked.json().data._draft._updatedAt).toMatch(/Z$/);
    // perspective=drafts serves the draft; published serves the main version.
    const drafts = await get(doc._id as string, '?perspective=drafts');
    expect(drafts.json().data).toMatchObject({ _version: 'draft', _rev: 1, title: 'Unfinished' });
    expect(drafts.headers.etag).toBe('"d1"');
    const pub = await get(doc._id as string, '?perspective=published');
    expect(pub.json().data).toMatchObject({ _version: 'main', _rev: 1, title: 'Live title' });
  });

  it('later draft saves advance the draft revision; If-Match compares draft ETags (the main ETag before a draft exists)', async () => {
    const doc = await published('Versioned');
    const id = doc._id as string;
    const stale = await t.request({
      method: 'PATCH',
      url: url(id, '?draft=true'),
      token: admin,
      payload: { views: 1 },
      headers: { 'if-match': '"7"' },
    });
    expect(stale.statusCode).toBe(412);
    const first = await t.request({
      method: 'PATCH',
      url: url(id, '?draft=true'),
      token: admin,
      payload: { views: 1 },
      headers: { 'if-match': '"1"' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers.etag).toBe('"d1"');
    const mainTag = await t.request({
      method: 'PATCH',
      url: url(id, '?draft=true'),
      token: admin,
      payload: { views: 2 },
      headers: { 'if-match': '"1"' },
    });
    expect(mainTag.statusCode).toBe(412);
    const second = await t.request({
      method: 'PUT',
      url: url(id, '?draft=true'),
      token: admin,
      payload: { title: 'Versioned', views: 2 },
      headers: { 'if-match': '"d1"' },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ _rev: 2, views: 2, _version: 'draft' });
    expect((await get(id, '', null)).json().data).toMatchObject({ _rev: 1 });
    expect((await get(id, '', null)).json().data.views).toBeUndefined();
  });

  it('refuses _status in a draft write (422) and validates the draft as any write', async () => {
    const doc = await published('Strict');
    const status = await t.request({
      method: 'PATCH',
      url: url(doc._id as string, '?draft=true'),
      token: admin,
      payload: { _status: 'draft' },
    });
    expect(status.statusCode).toBe(422);
    expect(status.json().error.code).toBe('VALIDATION_ERROR');
    expect(status.json().error.details[0].field).toBe('_status');
    const invalid = await t.request({ method: 'PATCH', url: url(doc._id as string, '?draft=true'), token: admin, payload: { views: -3 } });
    expect(invalid.statusCode).toBe(422);
    const missing = await t.request({
      method: 'PATCH',
      url: url(doc._id as string, '?draft=true'),
      token: admin,
      payload: { author: 'no-such-author' },
    });
    expect(missing.statusCode).toBe(422);
    expect((await get(doc._id as string, '?perspective=drafts')).json().data._version).toBe('main');
  });

  it('on a document that is not published, ?draft=true writes the main version as usual', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Still a draft' });
    const res = await t.request({
      method: 'PATCH',
      url: url(doc._id as string, '?draft=true'),
      token: admin,
      payload: { title: 'Edited' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ _rev: 2, _status: 'draft', title: 'Edited' });
    expect(res.json().data._version).toBeUndefined();
    expect(res.headers.etag).toBe('"2"');
  });

  it('a writer (no publish permission) proposes a change to a published page as a draft; without ?draft=true it is 403', async () => {
    const token = await writerToken();
    const doc = await published('Team page');
    const direct = await t.request({ method: 'PATCH', url: url(doc._id as string), token, payload: { title: 'Writer edit' } });
    expect(direct.statusCode).toBe(403);
    const draft = await t.request({
      method: 'PATCH',
      url: url(doc._id as string, '?draft=true'),
      token,
      payload: { title: 'Writer edit' },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().data).toMatchObject({ _version: 'draft', title: 'Writer edit' });
  });

  it('perspective=drafts needs read permission: anonymous 401', async () => {
    const doc = await published('Private draft');
    const res = await get(doc._id as string, '?perspective=drafts', null);
    expect(res.statusCode).toBe(401);
    const bad = await get(doc._id as string, '?perspective=everything');
    expect(bad.statusCode).toBe(400);
  });
});

describe('discarding a draft', () => {
  it('DELETE …/draft drops the pending draft, 404 when there is none; the main version stays', async () => {
    const doc = await published('Discard me');
    const id = doc._id as string;
    const none = await t.request({ method: 'DELETE', url: url(id, '/draft'), token: admin });
    expect(none.statusCode).toBe(404);
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'Throwaway' } });
    const gone = await t.request({ method: 'DELETE', url: url(id, '/draft'), token: admin });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ success: true });
    const after = await get(id, '?perspective=drafts');
    expect(after.json().data).toMatchObject({ _version: 'main', title: 'Discard me' });
    expect((await get(id)).json().data._draft).toBeUndefined();
    // A new draft continues the draft revisions: numbers never repeat.
    const again = await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'Second try' } });
    expect(again.json().data._rev).toBe(2);
  });
});

describe('references held by a draft', () => {
  it('protect their target from deletion, as the main version’s do', async () => {
    const author = await postDocument(t, admin, 'author', { name: 'Draft-only author', _status: 'published' });
    const doc = await published('Cites nobody yet');
    await t.request({ method: 'PATCH', url: url(doc._id as string, '?draft=true'), token: admin, payload: { author: author._id } });
    const del = await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin });
    expect(del.statusCode).toBe(409);
    expect(JSON.stringify(del.json().error.details)).toContain(doc._id as string);
    // Discarded, the draft no longer holds it.
    await t.request({ method: 'DELETE', url: url(doc._id as string, '/draft'), token: admin });
    const ok = await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin });
    expect(ok.statusCode).toBe(200);
  });

  it('deleting the document drops its draft with it', async () => {
    const doc = await published('Whole document');
    await t.request({ method: 'PATCH', url: url(doc._id as string, '?draft=true'), token: admin, payload: { title: 'Its draft' } });
    const del = await t.request({ method: 'DELETE', url: url(doc._id as string), token: admin });
    expect(del.statusCode).toBe(200);
    expect((await get(doc._id as string, '?perspective=drafts')).statusCode).toBe(404);
  });
});

const publish = (type: string, id: string, payload?: Record<string, unknown>, query = '', token = admin) =>
  t.request({ method: 'POST', url: `/api/documents/${type}/${id}/publish${query}`, token, ...(payload ? { payload } : {}) });

describe('publishing', () => {
  it('applies the pending draft to the main version: published, _rev + 1, one revision, the draft gone', async () => {
    const doc = await published('Before');
    const id = doc._id as string;
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'After' } });
    const res = await publish('post', id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ _id: id, _status: 'published', _rev: 2, title: 'After' });
    expect(res.json().data._version).toBeUndefined();
    expect(res.headers.etag).toBe('"2"');
    expect((await get(id, '', null)).json().data).toMatchObject({ _rev: 2, title: 'After' });
    expect((await get(id)).json().data._draft).toBeUndefined();
    expect((await get(id, '?perspective=drafts')).json().data._version).toBe('main');
    const history = await t.request({ method: 'GET', url: url(id, '/revisions'), token: admin });
    expect(history.json().data.map((r: { _rev: number; data: { title: string } }) => [r._rev, r.data.title])).toEqual([
      [2, 'After'],
      [1, 'Before'],
    ]);
  });

  it('publishes a main version that is not published; a published one with nothing pending is answered as it is', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Unpublished' });
    const res = await publish('post', doc._id as string, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ _status: 'published', _rev: 2 });
    const again = await publish('post', doc._id as string);
    expect(again.statusCode).toBe(200);
    expect(again.json().data._rev).toBe(2);
  });

  it('refuses a reference to an unpublished document (409 naming it), plans it with dryRun, publishes it withReferences', async () => {
    const company = await postDocument(t, admin, 'company', { name: 'Unlisted Ltd' });
    const author = await postDocument(t, admin, 'author', { name: 'New author', company: company._id });
    const doc = await published('Needs an author');
    const id = doc._id as string;
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { author: author._id } });

    const refused = await publish('post', id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('CONFLICT');
    expect(refused.json().error.details).toEqual([{ field: 'author', message: `references author ${author._id}, which is not published` }]);
    expect((await get(id, '?perspective=drafts')).json().data._version).toBe('draft');

    const plan = await publish('post', id, { dryRun: true });
    expect(plan.statusCode).toBe(200);
    expect(plan.json().data).toEqual({ publish: [], blockedBy: [{ type: 'author', id: author._id, field: 'author' }] });
    const full = await publish('post', id, { dryRun: true, withReferences: true });
    expect(full.json().data).toEqual({
      publish: [
        { type: 'post', id },
        { type: 'author', id: author._id },
        { type: 'company', id: company._id },
      ],
      blockedBy: [
        { type: 'author', id: author._id, field: 'author' },
        { type: 'company', id: company._id, field: 'company' },
      ],
    });
    expect((await get(author._id as string, '', null)).statusCode).toBe(404);

    const done = await publish('post', id, { withReferences: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ _status: 'published', author: author._id });
    for (const [type, target] of [
      ['author', author._id],
      ['company', company._id],
    ]) {
      const read = await t.request({ method: 'GET', url: `/api/documents/${type}/${target}` });
      expect(read.json().data._status).toBe('published');
    }
  });

  it('withReferences needs the publish permission on every type it publishes: else 403 and nothing is published', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'post publisher', permissions: ['post:read', 'post:write', 'post:publish'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().data.token as string;
    const author = await postDocument(t, admin, 'author', { name: 'Held back' });
    const doc = await postDocument(t, admin, 'post', { title: 'Draft post', author: author._id });
    const denied = await publish('post', doc._id as string, { withReferences: true }, '', token);
    expect(denied.statusCode).toBe(403);
    expect((await get(doc._id as string)).json().data._status).toBe('draft');
    expect((await t.request({ method: 'GET', url: `/api/documents/author/${author._id}`, token: admin })).json().data._status).toBe(
      'draft',
    );
  });

  it('a draft made from an older main version is 409 unless ?force=true', async () => {
    const doc = await published('Base');
    const id = doc._id as string;
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'Draft on base' } });
    const direct = await t.request({ method: 'PATCH', url: url(id), token: admin, payload: { views: 5 } });
    expect(direct.json().data._rev).toBe(2);
    const stale = await publish('post', id);
    expect(stale.statusCode).toBe(409);
    expect((await get(id, '', null)).json().data).toMatchObject({ _rev: 2, title: 'Base' });
    const forced = await publish('post', id, undefined, '?force=true');
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().data).toMatchObject({ _rev: 3, title: 'Draft on base' });
  });

  it('a writer may not publish (403)', async () => {
    const token = await writerToken();
    const doc = await postDocument(t, admin, 'post', { title: 'Writer cannot publish' });
    expect((await publish('post', doc._id as string, undefined, '', token)).statusCode).toBe(403);
  });
});

describe('unpublishing', () => {
  it('makes the document a draft holding its pending draft’s content, or its published content', async () => {
    const withDraft = await published('Live A');
    await t.request({ method: 'PATCH', url: url(withDraft._id as string, '?draft=true'), token: admin, payload: { title: 'Pending A' } });
    const a = await t.request({ method: 'POST', url: url(withDraft._id as string, '/unpublish'), token: admin });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().data).toMatchObject({ _status: 'draft', _rev: 2, title: 'Pending A' });
    expect((await get(withDraft._id as string, '', null)).statusCode).toBe(404);
    expect((await get(withDraft._id as string)).json().data._draft).toBeUndefined();

    const plain = await published('Live B');
    const b = await t.request({ method: 'POST', url: url(plain._id as string, '/unpublish'), token: admin });
    expect(b.json().data).toMatchObject({ _status: 'draft', _rev: 2, title: 'Live B' });
    const again = await t.request({ method: 'POST', url: url(plain._id as string, '/unpublish'), token: admin });
    expect(again.json().data._rev).toBe(2);
  });
});

describe('restoring a revision of a published document', () => {
  it('writes its pending draft: the live version is untouched until published', async () => {
    const doc = await published('First words');
    const id = doc._id as string;
    await t.request({ method: 'PATCH', url: url(id), token: admin, payload: { title: 'Second words' } });
    const restored = await t.request({ method: 'POST', url: url(id, '/revisions/1/restore'), token: admin });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data).toMatchObject({ _version: 'draft', title: 'First words' });
    expect((await get(id, '', null)).json().data).toMatchObject({ _rev: 2, title: 'Second words' });
  });
});

describe('lists with a perspective', () => {
  const list = (query: string, token: string | null = admin) =>
    t.request({ method: 'GET', url: `/api/documents/post?filter[tags]=persp&${query}`, token: token ?? undefined });
  const titles = (res: { json(): { data: Array<{ title: string }> } }) => res.json().data.map((d) => d.title);
  let withDraft: string;

  it('drafts: each document’s pending draft where it has one, filtered and ordered by what is served', async () => {
    withDraft = (await published('Alpha live', { tags: ['persp'] }))._id as string;
    await published('Beta live', { tags: ['persp'] });
    await postDocument(t, admin, 'post', { title: 'Gamma unpublished', tags: ['persp'] });
    await t.request({ method: 'PATCH', url: url(withDraft, '?draft=true'), token: admin, payload: { title: 'Zeta pending' } });

    const drafts = await list('perspective=drafts&orderBy=title&order=asc');
    expect(drafts.statusCode, drafts.body).toBe(200);
    expect(titles(drafts)).toEqual(['Beta live', 'Gamma unpublished', 'Zeta pending']);
    expect(drafts.json().data.map((d: { _version: string }) => d._version)).toEqual(['main', 'main', 'draft']);
    expect(drafts.json().meta).toMatchObject({ total: 3 });
    const found = await list('perspective=drafts&filter[title]=Zeta pending');
    expect(titles(found)).toEqual(['Zeta pending']);
    expect(found.json().data[0]._rev).toBe(1);
    // Without the perspective the same filter finds nothing: the main version says 'Alpha live'.
    expect(titles(await list('filter[title]=Zeta pending'))).toEqual([]);
  });

  it('published: main versions that are published; absent: as before, with the _draft marker for readers with permission', async () => {
    const pub = await list('perspective=published&orderBy=title&order=asc');
    expect(titles(pub)).toEqual(['Alpha live', 'Beta live']);
    expect(pub.json().data.every((d: { _version: string }) => d._version === 'main')).toBe(true);
    const plain = await list('orderBy=title&order=asc');
    expect(titles(plain)).toEqual(['Alpha live', 'Beta live', 'Gamma unpublished']);
    expect(plain.json().data[0]._draft).toMatchObject({ _rev: 1 });
    expect(plain.json().data[1]._draft).toBeUndefined();
    expect(plain.json().data[0]._version).toBeUndefined();
    const anonymous = await list('orderBy=title&order=asc', null);
    expect(titles(anonymous)).toEqual(['Alpha live', 'Beta live']);
    expect(anonymous.json().data[0]._draft).toBeUndefined();
  });

  it('drafts needs read permission (anonymous 401); cursors page through what is served', async () => {
    expect((await list('perspective=drafts', null)).statusCode).toBe(401);
    expect((await list('perspective=nope')).statusCode).toBe(400);
    const seen: string[] = [];
    let next = 'perspective=drafts&orderBy=title&order=desc&limit=1';
    for (let i = 0; i < 5 && next; i++) {
      const page = await list(next);
      expect(page.statusCode, page.body).toBe(200);
      seen.push(...titles(page));
      const cursor = page.json().meta.nextCursor as string | null;
      next = cursor ? `perspective=drafts&orderBy=title&order=desc&limit=1&after=${encodeURIComponent(cursor)}` : '';
    }
    expect(seen).toEqual(['Zeta pending', 'Gamma unpublished', 'Beta live']);
  });
});

describe('expansion with a perspective', () => {
  it('under drafts, references resolve their pending drafts; otherwise their main versions', async () => {
    const author = await postDocument(t, admin, 'author', { name: 'Live author', _status: 'published' });
    await t.request({
      method: 'PATCH',
      url: `/api/documents/author/${author._id}?draft=true`,
      token: admin,
      payload: { name: 'Draft author' },
    });
    const doc = await published('Cites the author', { author: author._id });
    const drafts = await get(doc._id as string, '?perspective=drafts&expand=author');
    expect(drafts.json().data.author).toMatchObject({ _id: author._id, _version: 'draft', name: 'Draft author' });
    const live = await get(doc._id as string, '?expand=author', null);
    expect(live.json().data.author).toMatchObject({ _id: author._id, name: 'Live author' });
    expect(live.json().data.author._version).toBeUndefined();
  });
});

describe('the history of drafts', () => {
  it('lists the pending draft’s saves with ?kind=draft (main versions by default, each marked with its kind) and restores one', async () => {
    const doc = await published('History v1');
    const id = doc._id as string;
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'Draft save 1' } });
    await t.request({ method: 'PATCH', url: url(id, '?draft=true'), token: admin, payload: { title: 'Draft save 2' } });
    const drafts = await t.request({ method: 'GET', url: url(id, '/revisions?kind=draft'), token: admin });
    expect(drafts.statusCode, drafts.body).toBe(200);
    expect(drafts.json().data.map((r: { _rev: number; kind: string; data: { title: string } }) => [r._rev, r.kind, r.data.title])).toEqual([
      [2, 'draft', 'Draft save 2'],
      [1, 'draft', 'Draft save 1'],
    ]);
    expect(drafts.json().meta.total).toBe(2);
    const mains = await t.request({ method: 'GET', url: url(id, '/revisions'), token: admin });
    expect(mains.json().data.map((r: { _rev: number; kind: string }) => [r._rev, r.kind])).toEqual([[1, 'main']]);
    const restored = await t.request({ method: 'POST', url: url(id, '/revisions/1/restore?kind=draft'), token: admin });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data).toMatchObject({ _version: 'draft', _rev: 3, title: 'Draft save 1' });
    expect((await t.request({ method: 'GET', url: url(id, '/revisions?kind=other'), token: admin })).statusCode).toBe(400);
  });
});

describe('search with a perspective', () => {
  it('under drafts, a document with a pending draft is found by the draft’s words, not the live version’s', async () => {
    const doc = await published('Marmalade recipe');
    await t.request({ method: 'PATCH', url: url(doc._id as string, '?draft=true'), token: admin, payload: { title: 'Quince recipe' } });
    const search = (words: string, query = '') =>
      t.request({ method: 'GET', url: `/api/documents/post?search=${encodeURIComponent(words)}${query}`, token: admin });
    const ids = (res: { json(): { data: Array<{ _id: string }> } }) => res.json().data.map((d) => d._id);
    expect(ids(await search('quince', '&perspective=drafts'))).toEqual([doc._id]);
    expect(ids(await search('marmalade', '&perspective=drafts'))).toEqual([]);
    expect(ids(await search('marmalade'))).toEqual([doc._id]);
    expect(ids(await search('quince'))).toEqual([]);
    // Published, the draft's words are the live version's.
    await t.request({ method: 'POST', url: url(doc._id as string, '/publish'), token: admin });
    expect(ids(await search('quince'))).toEqual([doc._id]);
    expect(ids(await search('quince', '&perspective=drafts'))).toEqual([doc._id]);
  });
});
