import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { postDocument } from '../helpers/post-document.js';
import { spyQueries } from '../helpers/query-spy.js';
import { useContentApp } from '../helpers/use-content-app.js';
import type { JsonObject } from '../helpers/json-object.js';

let t: TestApp;
let admin: string;
const docs: Record<string, JsonObject> = {};

async function create(key: string, type: string, payload: Record<string, unknown>) {
  docs[key] = await postDocument(t, admin, type, payload);
  return docs[key];
}

/** Titles of the posts a query returns (as admin unless told otherwise), in order. */
async function titles(query: string, token: string | null = admin): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/documents/post?limit=100&${query}`, token: token ?? undefined });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((d: { title: string }) => d.title);
}
const sorted = (a: string[]) => [...a].sort();

useContentApp((app, token) => ((t = app), (admin = token)));
beforeAll(async () => {
  await create('acme', 'company', { name: 'Acme', country: 'de', _status: 'published' });
  await create('hidden', 'company', { name: 'Hidden Co' });
  await create('ada', 'author', { name: 'Ada', company: docs.acme._id, _status: 'published' });
  await create('bob', 'author', { name: 'Bob', company: docs.hidden._id, _status: 'published' });
  await create('cyd', 'author', { name: 'Cyd' });
  await create('p1', 'post', {
    title: 'Alpha',
    price: 10,
    views: 100,
    featured: true,
    category: 'news',
    tags: ['js', 'web'],
    author: docs.ada._id,
    seo: { title: 'Alpha SEO' },
    publishedOn: '2024-01-10',
    publishAt: '2024-01-10T08:00:00Z',
    location: { lat: 52.5, lng: 13.4 },
    body: 'The quick brown fox jumps',
    _status: 'published',
  });
  await create('p2', 'post', {
    title: 'Beta',
    price: 2.5,
    views: 5,
    category: 'guide',
    tags: ['rust'],
    author: docs.bob._id,
    related: [docs.p1._id],
    body: 'Lazy dogs sleep all day',
    _status: 'published',
  });
  await create('p3', 'post', {
    title: 'Gamma',
    price: 100,
    views: 0,
    category: 'guide',
    author: docs.cyd._id,
    related: [docs.p1._id, docs.p2._id],
    body: 'quick thinking',
  });
  await create('p4', 'post', {
    title: 'delta',
    category: 'opinion',
    tags: ['js'],
    _status: 'archived',
    content: '<p>Rich <em>quickly</em> text</p>',
  });
});

describe('filters', () => {
  it('equality is typed by the schema', async () => {
    expect(await titles('filter[price]=10')).toEqual(['Alpha']);
    expect(await titles('filter[price]=10.0')).toEqual(['Alpha']);
    expect(await titles('filter[featured]=true')).toEqual(['Alpha']);
    expect(sorted(await titles('filter[featured]=false'))).toEqual(['Beta', 'Gamma', 'delta']);
    expect(sorted(await titles('filter[category]=guide'))).toEqual(['Beta', 'Gamma']);
    expect(await titles('filter[title]=alpha')).toEqual([]);
  });

  it('every operator', async () => {
    expect(sorted(await titles('filter[category][ne]=guide'))).toEqual(['Alpha', 'delta']);
    expect(sorted(await titles('filter[price][gt]=2.5'))).toEqual(['Alpha', 'Gamma']);
    expect(sorted(await titles('filter[price][gte]=2.5'))).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(sorted(await titles('filter[price][lt]=10'))).toEqual(['Beta']);
    expect(sorted(await titles('filter[price][lte]=10'))).toEqual(['Alpha', 'Beta']);
    expect(sorted(await titles('filter[category][in]=news,opinion'))).toEqual(['Alpha', 'delta']);
    expect(sorted(await titles('filter[category][nin]=news,opinion'))).toEqual(['Beta', 'Gamma']);
    expect(sorted(await titles('filter[title][contains]=ta'))).toEqual(['Beta', 'delta']);
    expect(sorted(await titles('filter[title][contains]=ALP'))).toEqual(['Alpha']);
    expect(sorted(await titles('filter[title][startsWith]=Ga'))).toEqual(['Gamma']);
    expect(sorted(await titles('filter[price][exists]=false'))).toEqual(['delta']);
    expect(sorted(await titles('filter[seo][exists]=true'))).toEqual(['Alpha']);
    // An absent field counts as "not equal".
    expect(sorted(await titles('filter[views][ne]=5'))).toEqual(['Alpha', 'Gamma', 'delta']);
  });

  it('combines several filters with AND', async () => {
    expect(await titles('filter[category]=guide&filter[price][gt]=3')).toEqual(['Gamma']);
    expect(await titles('filter[category]=guide&filter[price][gt]=3&filter[views]=1')).toEqual([]);
  });

  it('dotted paths reach inside objects, slugs and geopoints', async () => {
    expect(await titles('filter[seo.title]=Alpha SEO')).toEqual(['Alpha']);
    expect(await titles('filter[slug]=beta')).toEqual(['Beta']);
    expect(await titles('filter[slug.current]=beta')).toEqual(['Beta']);
    expect(await titles('filter[location.lat][gt]=50')).toEqual(['Alpha']);
  });

  it('array fields test membership', async () => {
    expect(sorted(await titles('filter[tags]=js'))).toEqual(['Alpha', 'delta']);
    expect(sorted(await titles('filter[tags][contains]=rust'))).toEqual(['Beta']);
    expect(sorted(await titles('filter[tags][in]=rust,web'))).toEqual(['Alpha', 'Beta']);
    expect(sorted(await titles('filter[tags][nin]=js'))).toEqual(['Beta', 'Gamma']);
    expect(sorted(await titles('filter[tags][ne]=js'))).toEqual(['Beta', 'Gamma']);
    expect(sorted(await titles(`filter[related]=${docs.p1._id}`))).toEqual(['Beta', 'Gamma']);
  });

  it('reference fields filter by the referenced _id', async () => {
    expect(await titles(`filter[author]=${docs.ada._id}`)).toEqual(['Alpha']);
    expect(sorted(await titles(`filter[author][in]=${docs.ada._id},${docs.bob._id}`))).toEqual(['Alpha', 'Beta']);
  });

  it('dates, date-times and system fields', async () => {
    expect(await titles('filter[publishedOn][gte]=2024-01-01')).toEqual(['Alpha']);
    expect(await titles('filter[publishAt][lt]=2024-01-10T09:00:00%2B00:00')).toEqual(['Alpha']);
    expect(sorted(await titles('filter[_status]=published'))).toEqual(['Alpha', 'Beta']);
    expect(sorted(await titles('filter[_status][in]=draft,archived'))).toEqual(['Gamma', 'delta']);
    expect(await titles(`filter[_id]=${docs.p3._id}`)).toEqual(['Gamma']);
    expect((await titles('filter[_createdAt][gte]=2000-01-01')).length).toBe(4);
    expect(await titles('filter[_createdAt][lt]=2000-01-01')).toEqual([]);
    expect((await titles('filter[_rev]=1')).length).toBe(4);
  });
});

describe('order, paging, fields, search', () => {
  it('orders by any field or system field, nulls first ascending', async () => {
    expect(await titles('orderBy=price&order=asc')).toEqual(['delta', 'Beta', 'Alpha', 'Gamma']);
    expect(await titles('orderBy=price&order=desc')).toEqual(['Gamma', 'Alpha', 'Beta', 'delta']);
    expect(await titles('orderBy=_createdAt&order=asc')).toEqual(['Alpha', 'Beta', 'Gamma', 'delta']);
    expect(await titles('')).toEqual(['delta', 'Gamma', 'Beta', 'Alpha']);
    expect(await titles('orderBy=seo.title&order=desc')).toEqual(['Alpha', 'delta', 'Gamma', 'Beta']);
  });

  it('limit, offset and meta', async () => {
    const res = await t.request({ method: 'GET', url: '/api/documents/post?limit=2&offset=1&orderBy=_createdAt&order=asc', token: admin });
    expect(res.json().data.map((d: { title: string }) => d.title)).toEqual(['Beta', 'Gamma']);
    expect(res.json().meta).toEqual({ total: 4, limit: 2, offset: 1, nextCursor: expect.any(String) });
    const clamped = await t.request({ method: 'GET', url: '/api/documents/post?limit=1000', token: admin });
    expect(clamped.json().meta.limit).toBe(100);
    const beyond = await t.request({ method: 'GET', url: '/api/documents/post?offset=50', token: admin });
    expect(beyond.json()).toEqual({ data: [], meta: { total: 4, limit: 20, offset: 50, nextCursor: null } });
    const defaults = await t.request({ method: 'GET', url: '/api/documents/post', token: admin });
    expect(defaults.json().meta).toEqual({ total: 4, limit: 20, offset: 0, nextCursor: null });
  });

  it('fields returns only those fields plus the system fields', async () => {
    const res = await t.request({ method: 'GET', url: `/api/documents/post?fields=title,price&filter[_id]=${docs.p1._id}`, token: admin });
    const [doc] = res.json().data;
    expect(Object.keys(doc).sort()).toEqual(
      ['_createdAt', '_createdBy', '_id', '_rev', '_status', '_type', '_updatedAt', '_updatedBy', 'price', 'title'].sort(),
    );
    const one = await t.request({ method: 'GET', url: `/api/documents/post/${docs.p1._id}?fields=slug`, token: admin });
    expect(one.json().data.slug).toEqual({ current: 'alpha' });
    expect(one.json().data).not.toHaveProperty('title');
  });

  it('full-text search over string, text, markdown and richtext fields', async () => {
    expect(sorted(await titles('search=quick'))).toEqual(['Alpha', 'Gamma', 'delta']);
    expect(await titles('search=lazy dogs')).toEqual(['Beta']);
    expect(await titles('search=QUICK brown')).toEqual(['Alpha']);
    expect(await titles('search=alp')).toEqual(['Alpha']);
    expect(await titles('search=nothing-matches-this')).toEqual([]);
    expect(await titles('search=quick&filter[_status]=draft')).toEqual(['Gamma']);
    // Search text follows updates.
    await t.request({ method: 'PATCH', url: `/api/documents/post/${docs.p2._id}`, token: admin, payload: { body: 'energetic cats' } });
    expect(await titles('search=lazy')).toEqual([]);
    expect(await titles('search=energetic')).toEqual(['Beta']);
    await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${docs.p2._id}`,
      token: admin,
      payload: { body: 'Lazy dogs sleep all day' },
    });
  });
});

describe('expand', () => {
  it('replaces a reference by the document, and nested paths by dots', async () => {
    const res = await t.request({ method: 'GET', url: `/api/documents/post/${docs.p1._id}?expand=author,author.company`, token: admin });
    const doc = res.json().data;
    expect(doc.author).toMatchObject({ _id: docs.ada._id, _type: 'author', name: 'Ada' });
    expect(doc.author.company).toMatchObject({ _id: docs.acme._id, name: 'Acme' });
    const implicit = await t.request({ method: 'GET', url: `/api/documents/post/${docs.p1._id}?expand=author.company`, token: admin });
    expect(implicit.json().data.author.company.name).toBe('Acme');
  });

  it('expands arrays of references, and references inside expanded documents', async () => {
    const res = await t.request({ method: 'GET', url: `/api/documents/post/${docs.p3._id}?expand=related,related.author`, token: admin });
    const doc = res.json().data;
    expect(doc.related.map((r: { title: string }) => r.title)).toEqual(['Alpha', 'Beta']);
    expect(doc.related.map((r: { author: { name: string } }) => r.author.name)).toEqual(['Ada', 'Bob']);
  });

  it('expands in lists', async () => {
    const res = await t.request({ method: 'GET', url: '/api/documents/post?expand=author&orderBy=_createdAt&order=asc', token: admin });
    expect(res.json().data.map((d: { author?: { name: string } }) => d.author?.name)).toEqual(['Ada', 'Bob', 'Cyd', undefined]);
  });

  it('never reveals what the caller could not read: unreadable targets stay ids', async () => {
    // Anonymous: Bob is published but his company is a draft.
    const res = await t.request({ method: 'GET', url: `/api/documents/post/${docs.p2._id}?expand=author.company` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.author.name).toBe('Bob');
    expect(res.json().data.author.company).toBe(docs.hidden._id);
    // Anonymous list: Gamma is a draft, so it is not listed; Beta's related Alpha is published.
    const list = await t.request({ method: 'GET', url: '/api/documents/post?expand=related&orderBy=_createdAt&order=asc' });
    expect(list.json().data.map((d: { title: string }) => d.title)).toEqual(['Alpha', 'Beta']);
    expect(list.json().data[1].related[0].title).toBe('Alpha');
  });

  it('fields and expand together: an expanded field is included as if listed in fields, and expanded', async () => {
    const system = ['_createdAt', '_createdBy', '_id', '_rev', '_status', '_type', '_updatedAt', '_updatedBy'];
    const list = await t.request({ method: 'GET', url: `/api/documents/post?fields=title&expand=author&filter[_id]=${docs.p1._id}` });
    expect(list.statusCode, list.body).toBe(200);
    const [doc] = list.json().data;
    expect(Object.keys(doc).sort()).toEqual([...system, 'author', 'title'].sort());
    expect(doc.author).toMatchObject({ _id: docs.ada._id, name: 'Ada' });
    const one = await t.request({
      method: 'GET',
      url: `/api/documents/post/${docs.p3._id}?fields=title&expand=author.company,related`,
      token: admin,
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(Object.keys(one.json().data).sort()).toEqual([...system, 'author', 'related', 'title'].sort());
    expect(one.json().data.author).toMatchObject({ name: 'Cyd' });
    expect(one.json().data.related.map((r: { title: string }) => r.title)).toEqual(['Alpha', 'Beta']);
    // A field already listed is not repeated, and documents without the field simply lack it.
    const both = await t.request({
      method: 'GET',
      url: `/api/documents/post?fields=author,title&expand=author&orderBy=_createdAt&order=asc`,
      token: admin,
    });
    expect(both.json().data.map((d: { author?: { name: string } }) => d.author?.name)).toEqual(['Ada', 'Bob', 'Cyd', undefined]);
    expect(Object.keys(both.json().data[3]).sort()).toEqual([...system, 'title'].sort());
  });

  it('costs one query per level, not one per document', async () => {
    let queries = 0;
    const restore = spyQueries(t, () => void queries++);
    try {
      await t.request({ method: 'GET', url: '/api/documents/post?expand=author,related,author.company' });
      const anonymousQueries = queries;
      queries = 0;
      await t.request({ method: 'GET', url: '/api/documents/post?expand=author,related,author.company', token: admin });
      // admin: session lookup + page + count + level 1 (author, related) + level 2 (company)
      expect(queries).toBe(5);
      expect(anonymousQueries).toBe(4);
    } finally {
      restore();
    }
  });
});

describe('anonymous visibility', () => {
  it('anonymous readers see published documents only', async () => {
    expect(sorted(await titles('', null))).toEqual(['Alpha', 'Beta']);
    expect((await t.request({ method: 'GET', url: `/api/documents/post/${docs.p3._id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/documents/post/${docs.p1._id}` })).statusCode).toBe(200);
    expect(await titles('filter[_status]=draft', null)).toEqual([]);
    const res = await t.request({ method: 'GET', url: '/api/documents/post?limit=100' });
    expect(res.json().meta.total).toBe(2);
  });

  it('a non-public schema is closed to anonymous readers', async () => {
    expect((await t.request({ method: 'GET', url: '/api/documents/secret' })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/documents/secret', token: admin })).statusCode).toBe(200);
  });

  it('documents.publicRead=false closes every type to anonymous readers', async () => {
    const closed = await startTestApp({ schemas: TEST_SCHEMAS, documents: { publicRead: false } });
    try {
      expect((await closed.request({ method: 'GET', url: '/api/documents/post' })).statusCode).toBe(404);
      const token = await closed.login(ADMIN.username, ADMIN.password);
      expect((await closed.request({ method: 'GET', url: '/api/documents/post', token })).statusCode).toBe(200);
    } finally {
      await closed.close();
    }
  });
});
