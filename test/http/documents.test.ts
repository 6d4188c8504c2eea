import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { detailFields } from '../helpers/expect-error.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';
import type { JsonObject } from '../helpers/json-object.js';

let t: TestApp;
let admin: string;

const post = (type: string, payload: Record<string, unknown>, token = admin) => postDocument(t, token, type, payload);
const get = (url: string, token: string | undefined = admin) => t.request({ method: 'GET', url, token });
const ids = (res: { json(): JsonObject }) => (res.json().data as Array<{ _id: string }>).map((d) => d._id);

useContentApp((app, token) => ((t = app), (admin = token)));

describe('create and read', () => {
  it('POST returns 201 with system fields, ETag and Location; GET returns the same document', async () => {
    const res = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'First post', views: 3 } });
    expect(res.statusCode).toBe(201);
    const doc = res.json().data;
    expect(doc).toMatchObject({ _type: 'post', _status: 'draft', _rev: 1, title: 'First post', views: 3, featured: false });
    expect(doc._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(doc._createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(doc._createdBy).toBeTruthy();
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers.location).toBe(`/api/documents/post/${doc._id}`);
    const read = await get(`/api/documents/post/${doc._id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(doc);
    expect(read.headers.etag).toBe('"1"');
  });

  it('accepts a client _id, refuses a taken or malformed one', async () => {
    await post('company', { _id: 'acme-1', name: 'Acme' });
    const again = await t.request({
      method: 'POST',
      url: '/api/documents/company',
      token: admin,
      payload: { _id: 'acme-1', name: 'Acme 2' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
    const bad = await t.request({
      method: 'POST',
      url: '/api/documents/company',
      token: admin,
      payload: { _id: 'no spaces/slashes', name: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details[0].field).toBe('_id');
  });

  it('ignores other system fields in a body', async () => {
    const doc = await post('post', { title: 'Sys', _rev: 99, _createdAt: '2000-01-01T00:00:00.000Z', _type: 'author' });
    expect(doc._rev).toBe(1);
    expect(doc._type).toBe('post');
    expect(doc._createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('validates every field type with dotted paths', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: {
        title: '',
        price: -1,
        views: 1.5,
        featured: 'yes',
        category: 'sports',
        tags: ['a', 2],
        seo: { title: 'x'.repeat(61), extra: 1 },
        location: { lat: 91, lng: 0 },
        publishedOn: '2024-02-30',
        publishAt: 'yesterday',
        website: 'javascript:alert(1)',
        contact: 'not-an-email',
        sku: 'lower-case',
        unknownField: 1,
        author: 'no such id',
      },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    const fields = detailFields(res);
    expect(fields).toEqual(
      [
        'category',
        'contact',
        'featured',
        'location.lat',
        'price',
        'publishAt',
        'publishedOn',
        'seo.extra',
        'seo.title',
        'sku',
        'tags.1',
        'title',
        'unknownField',
        'views',
        'website',
        'author',
      ].sort(),
    );
  });

  it('requires required fields and refuses references to missing or wrong-type documents', async () => {
    const missing = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details).toContainEqual({ field: 'title', message: 'is required' });
    const company = await post('company', { name: 'Wrong type' });
    const wrong = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'x', author: company._id },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.details[0].field).toBe('author');
    const gone = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'x', author: 'does-not-exist' },
    });
    expect(gone.statusCode).toBe(422);
    // One good and one missing reference in an array: the missing one is named by its index.
    const good = await post('post', { title: 'Good target' });
    const mixed = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'x', related: [good._id, 'gone-id'] },
    });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().error.details).toEqual([{ field: 'related.1', message: 'references a missing document gone-id' }]);
    // None of the refused creates wrote anything.
    expect(ids(await get('/api/documents/post?filter[title]=x'))).toEqual([]);
  });

  it('a document may reference itself when the field allows its type', async () => {
    const self = await post('post', { _id: 'self-loop', title: 'Self', related: ['self-loop'] });
    expect(self.related).toEqual(['self-loop']);
    const expanded = await get('/api/documents/post/self-loop?expand=related');
    expect(expanded.json().data.related[0]._id).toBe('self-loop');
  });

  it('sanitizes richtext and normalises datetimes to UTC', async () => {
    const doc = await post('post', {
      title: 'Rich',
      content: '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">l</a><strong>b</strong></p>',
      publishAt: '2024-05-01T12:00:00+02:00',
    });
    expect(doc.content).toBe('<p>Hi <a>l</a><strong>b</strong></p>');
    expect(doc.publishAt).toBe('2024-05-01T10:00:00.000Z');
  });

  it('treats null as absent for optional fields', async () => {
    const doc = await post('post', { title: 'Nulls', body: null, views: null });
    expect(doc).not.toHaveProperty('body');
    expect(doc).not.toHaveProperty('views');
  });

  it('a singleton holds one document', async () => {
    await post('site', { siteName: 'Vellum' });
    const second = await t.request({ method: 'POST', url: '/api/documents/site', token: admin, payload: { siteName: 'Again' } });
    expect(second.statusCode).toBe(409);
  });
});

describe('slugs and unique fields', () => {
  it('generates slugs from the source, unique per type with -2, -3', async () => {
    const a = await post('post', { title: 'Crème Brûlée: A Guide!' });
    const b = await post('post', { title: 'Crème Brûlée: a guide' });
    const c = await post('post', { title: 'CREME brulee -- a guide' });
    expect([a.slug, b.slug, c.slug]).toEqual([
      { current: 'creme-brulee-a-guide' },
      { current: 'creme-brulee-a-guide-2' },
      { current: 'creme-brulee-a-guide-3' },
    ]);
  });

  it('concurrent creates with one title all succeed, each with its own slug', async () => {
    const racing = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'Racing Title' } }),
      ),
    );
    expect(racing.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const slugs = racing.map((r) => r.json().data.slug.current).sort();
    expect(slugs).toEqual(['racing-title', ...Array.from({ length: 7 }, (_, i) => `racing-title-${i + 2}`)].sort());
  });

  it('normalises a sent slug (string or {current}) and refuses a taken one with 409', async () => {
    const a = await post('post', { title: 'Any', slug: 'My Custom Slug' });
    expect(a.slug).toEqual({ current: 'my-custom-slug' });
    const b = await post('post', { title: 'Any 2', slug: { current: 'other-slug' } });
    expect(b.slug).toEqual({ current: 'other-slug' });
    const taken = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'x', slug: 'my-custom-slug' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details).toEqual([{ field: 'slug', message: 'is already taken' }]);
  });

  it('keeps the slug on PATCH and regenerates an emptied one', async () => {
    const a = await post('post', { title: 'Stable slug' });
    const patched = await t.request({ method: 'PATCH', url: `/api/documents/post/${a._id}`, token: admin, payload: { title: 'Renamed' } });
    expect(patched.json().data.slug).toEqual({ current: 'stable-slug' });
    const emptied = await t.request({ method: 'PATCH', url: `/api/documents/post/${a._id}`, token: admin, payload: { slug: null } });
    expect(emptied.json().data.slug).toEqual({ current: 'renamed' });
  });

  it('unique fields conflict with 409, also under concurrent writes', async () => {
    await post('post', { title: 'U1', sku: 'SKU-1' });
    const dup = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'U2', sku: 'SKU-1' } });
    expect(dup.statusCode).toBe(409);
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: `R${i}`, sku: 'SKU-RACE' } }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('a create refused for a taken value leaves no reference or media use behind', async () => {
    const author = await post('author', { name: 'Referenced only by refused posts' });
    await post('post', { title: 'Holder', sku: 'SKU-HELD' });
    const refused = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'Refused', sku: 'SKU-HELD', author: author._id },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details).toEqual([{ field: 'sku', message: 'is already taken' }]);
    // No phantom referrer: the author deletes without force.
    expect((await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin })).statusCode).toBe(200);
  });
});

describe('update, ETag and revisions', () => {
  it('PUT replaces all fields and keeps the status; PATCH merges (RFC 7396)', async () => {
    const doc = await post('post', { title: 'Orig', body: 'b', seo: { title: 'S', description: 'D' }, tags: ['a', 'b'] });
    const put = await t.request({
      method: 'PUT',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      payload: { title: 'Replaced', seo: { title: 'S2' } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ _rev: 2, _status: 'draft', title: 'Replaced', seo: { title: 'S2' } });
    expect(put.json().data).not.toHaveProperty('body');
    expect(put.json().data).not.toHaveProperty('tags');
    expect(put.headers.etag).toBe('"2"');
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      payload: { seo: { description: 'New', title: null }, tags: ['z'] },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data).toMatchObject({ _rev: 3, title: 'Replaced', seo: { description: 'New' }, tags: ['z'] });
    expect(patch.json().data.seo).not.toHaveProperty('title');
  });

  it('If-Match: a stale revision gets 412 and changes nothing; the current one writes', async () => {
    const doc = await post('post', { title: 'Etag' });
    const stale = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      headers: { 'if-match': '"7"' },
      payload: { title: 'No' },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('PRECONDITION_FAILED');
    expect((await get(`/api/documents/post/${doc._id}`)).json().data.title).toBe('Etag');
    const ok = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      headers: { 'if-match': '"1"' },
      payload: { title: 'Yes' },
    });
    expect(ok.statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/api/documents/post/${doc._id}`, token: admin, headers: { 'if-match': '"1"' } });
    expect(del.statusCode).toBe(412);
  });

  it('a PATCH or PUT that changes nothing keeps _rev and _updatedAt and writes no revision; a stale If-Match is still 412', async () => {
    const doc = await post('post', {
      title: 'Same',
      seo: { title: 'S' },
      tags: ['a', 'b'],
      content: '<p>Hi <script>x</script></p>',
      publishAt: '2030-01-02T03:04:05+02:00',
    });
    const url = `/api/documents/post/${doc._id}`;
    const write = (method: 'PATCH' | 'PUT', payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.request({ method, url, token: admin, headers, payload });
    const unchanged = async (res: Awaited<ReturnType<typeof write>>) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual(doc);
      expect(res.headers.etag).toBe('"1"');
    };

    await unchanged(await write('PATCH', {}));
    await unchanged(await write('PATCH', { title: 'Same', seo: { title: 'S' }, _status: 'draft' }));
    // Values equal once normalised (sanitised richtext, a date-time in another zone) are no change either.
    await unchanged(await write('PATCH', { content: '<p>Hi <script>x</script></p>', publishAt: '2030-01-02T01:04:05Z' }));
    const fields = Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith('_')));
    await unchanged(await write('PUT', fields));
    await unchanged(await write('PATCH', { tags: ['a', 'b'] }, { 'if-match': '"1"' }));
    const stale = await write('PATCH', {}, { 'if-match': '"7"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('PRECONDITION_FAILED');

    const revisions = await get(`${url}/revisions`);
    expect(revisions.json().meta.total).toBe(1);
    expect((await get(url)).json().data).toEqual(doc);

    // A change still writes the next revision.
    const changed = await write('PATCH', { tags: ['b', 'a'] });
    expect(changed.json().data).toMatchObject({ _rev: 2, tags: ['b', 'a'] });
    expect((await get(`${url}/revisions`)).json().meta.total).toBe(2);
  });

  it('If-None-Match with the current ETag gets 304', async () => {
    const doc = await post('post', { title: 'Cache me' });
    const res = await t.request({
      method: 'GET',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      headers: { 'if-none-match': '"1"' },
    });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    const changed = await t.request({
      method: 'GET',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      headers: { 'if-none-match': '"0"' },
    });
    expect(changed.statusCode).toBe(200);
  });

  it('concurrent PATCHes are all applied (no lost update)', async () => {
    const doc = await post('post', { title: 'Counter', tags: [] });
    const results = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((tag) =>
        t.request({
          method: 'PATCH',
          url: `/api/documents/post/${doc._id}`,
          token: admin,
          payload: { [`seo`]: { [tag === 'a' ? 'title' : 'description']: tag } },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const revs = results.map((r) => r.json().data._rev).sort();
    expect(revs).toEqual([2, 3, 4, 5, 6]);
  });

  it('lists revisions newest first and restores one as a new revision', async () => {
    const doc = await post('post', { title: 'v1' });
    await t.request({ method: 'PATCH', url: `/api/documents/post/${doc._id}`, token: admin, payload: { title: 'v2' } });
    await t.request({ method: 'PATCH', url: `/api/documents/post/${doc._id}`, token: admin, payload: { title: 'v3' } });
    const revs = await get(`/api/documents/post/${doc._id}/revisions`);
    expect(revs.statusCode).toBe(200);
    expect(revs.json().data.map((r: { _rev: number; data: { title: string } }) => [r._rev, r.data.title])).toEqual([
      [3, 'v3'],
      [2, 'v2'],
      [1, 'v1'],
    ]);
    expect(revs.json().meta).toEqual({ total: 3, limit: 20, offset: 0 });
    expect(revs.json().data[0]).toHaveProperty('_updatedAt');
    expect(revs.json().data[0]).toHaveProperty('_updatedBy');
    // The current version (the document row) and earlier ones page as one list.
    const page = await get(`/api/documents/post/${doc._id}/revisions?limit=1&offset=1`);
    expect(page.json().data.map((r: { _rev: number }) => r._rev)).toEqual([2]);
    expect(page.json().meta).toEqual({ total: 3, limit: 1, offset: 1 });
    const current = await t.request({ method: 'POST', url: `/api/documents/post/${doc._id}/revisions/3/restore`, token: admin });
    expect(current.json().data).toMatchObject({ _rev: 4, title: 'v3' });
    const restored = await t.request({ method: 'POST', url: `/api/documents/post/${doc._id}/revisions/1/restore`, token: admin });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ _rev: 5, title: 'v1' });
    const missing = await t.request({ method: 'POST', url: `/api/documents/post/${doc._id}/revisions/99/restore`, token: admin });
    expect(missing.statusCode).toBe(404);
    const anonymous = await t.request({ method: 'GET', url: `/api/documents/post/${doc._id}/revisions` });
    // Revisions hold drafts: anonymous callers of a public type must sign in.
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('delete', () => {
  it('refuses to delete a referenced document with 409 listing referrers, unless force=true', async () => {
    const author = await post('author', { name: 'Referenced' });
    const p = await post('post', { title: 'Refers', author: author._id });
    const res = await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details).toEqual([{ field: 'author', message: `referenced by post ${p._id}` }]);
    const forced = await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}?force=true`, token: admin });
    expect(forced.statusCode).toBe(200);
    expect(forced.json()).toEqual({ success: true });
    expect((await get(`/api/documents/author/${author._id}`)).statusCode).toBe(404);
    // The referrer keeps the dangling id, and expand leaves it as an id.
    const read = await get(`/api/documents/post/${p._id}?expand=author`);
    expect(read.json().data.author).toBe(author._id);
  });

  it('a reference removed by an update no longer blocks deletion', async () => {
    const author = await post('author', { name: 'Unlinked' });
    const p = await post('post', { title: 'Was linked', author: author._id });
    await t.request({ method: 'PATCH', url: `/api/documents/post/${p._id}`, token: admin, payload: { author: null } });
    const res = await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin });
    expect(res.statusCode).toBe(200);
  });

  it('a reference moved by an update moves the delete guard with it', async () => {
    const first = await post('author', { name: 'First' });
    const second = await post('author', { name: 'Second' });
    const p = await post('post', { title: 'Moving', author: first._id, related: [] });
    const moved = await t.request({ method: 'PATCH', url: `/api/documents/post/${p._id}`, token: admin, payload: { author: second._id } });
    expect(moved.statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/documents/author/${second._id}`, token: admin })).statusCode).toBe(409);
    expect((await t.request({ method: 'DELETE', url: `/api/documents/author/${first._id}`, token: admin })).statusCode).toBe(200);
  });

  it('an update refused for a taken value or a missing reference changes nothing', async () => {
    await post('post', { title: 'Holds SKU', sku: 'SKU-UPD' });
    const author = await post('author', { name: 'Kept' });
    const p = await post('post', { title: 'Unchanged', author: author._id });
    const taken = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${p._id}`,
      token: admin,
      payload: { title: 'Changed', sku: 'SKU-UPD' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details).toEqual([{ field: 'sku', message: 'is already taken' }]);
    const missing = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${p._id}`,
      token: admin,
      payload: { title: 'Changed', author: 'no-such-author' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details).toEqual([{ field: 'author', message: 'references a missing document no-such-author' }]);
    const after = (await get(`/api/documents/post/${p._id}`)).json().data;
    expect([after.title, after._rev, after.author]).toEqual(['Unchanged', 1, author._id]);
    expect((await get(`/api/documents/post/${p._id}/revisions`)).json().data).toHaveLength(1);
    // The reference still guards its target.
    expect((await t.request({ method: 'DELETE', url: `/api/documents/author/${author._id}`, token: admin })).statusCode).toBe(409);
  });

  it('deleting a missing document is 404, and the type must match', async () => {
    const company = await post('company', { name: 'Typed' });
    expect((await t.request({ method: 'DELETE', url: `/api/documents/post/${company._id}`, token: admin })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: '/api/documents/post/nope', token: admin })).statusCode).toBe(404);
  });
});

describe('slug suffixes at scale', () => {
  it('the 30th post with one title gets -30, and a long title keeps its suffix within 96 characters', async () => {
    let last: JsonObject = {};
    for (let i = 0; i < 30; i++) last = await post('post', { title: 'Same Title Again' });
    expect(last.slug).toEqual({ current: 'same-title-again-30' });
    const long = 'word '.repeat(30);
    const first = await post('post', { title: long });
    const second = await post('post', { title: long });
    expect(first.slug.current.length).toBeLessThanOrEqual(96);
    expect(second.slug.current).toMatch(/-2$/);
    expect(second.slug.current.length).toBeLessThanOrEqual(96);
    // A title that merely starts like a taken slug is not mistaken for a suffix.
    const other = await post('post', { title: 'Same Title Again Later' });
    expect(other.slug).toEqual({ current: 'same-title-again-later' });
  });
});
