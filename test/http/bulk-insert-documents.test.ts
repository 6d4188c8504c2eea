import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkInsertDocuments, BULK_BATCH_SIZE } from '../../packages/server/src/index.js';
import type { Principal } from '../../packages/server/src/domain/access/principal.js';
import { AppError } from '../../packages/server/src/errors.js';
import type { TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * The bulk insert (imports, the benchmark's seeding) stores what a create stores: its documents
 * list, filter, search, expand and take revisions like API-created ones, and a batch with a bad
 * document is not written at all.
 */
let t: TestApp;
let admin: string;
let actor: Principal;
const authors: string[] = [];

useContentApp((app, token) => ((t = app), (admin = token)));

beforeAll(async () => {
  const company = await postDocument(t, admin, 'company', { name: 'Acme', _status: 'published' });
  for (const name of ['Ada', 'Grace'])
    authors.push((await postDocument(t, admin, 'author', { name, company: company._id, _status: 'published' }))._id);
  const me = await postDocument(t, admin, 'company', { name: 'Probe' });
  actor = { kind: 'user', id: me._createdBy, role: 'admin', permissions: new Set() };
});

const bulk = (documents: unknown[]) => bulkInsertDocuments(t.app.services, { type: 'post', documents, actor });
const get = async (url: string) => {
  const res = await t.request({ method: 'GET', url, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const total = async () => (await get('/api/documents/post?limit=0')).meta.total as number;
/** The AppError `fn` throws. */
async function failure(fn: () => Promise<unknown>): Promise<AppError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** Every stored trace of a document: its row (but `seq`), references, media uses and search text. */
async function storedTraces(id: string) {
  const db = t.app.services.database.db;
  const row = await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const { seq, search, ...columns } = row as typeof row & { search?: unknown };
  const refs = await db.selectFrom('document_refs').selectAll().where('source_id', '=', id).orderBy('path').execute();
  const media = await db.selectFrom('document_media').selectAll().where('source_id', '=', id).orderBy('path').execute();
  const text =
    dialect === 'postgres'
      ? (await sql<{ text: string }>`select search::text as text from documents where id = ${id}`.execute(db)).rows[0].text
      : (await sql<{ text: string }>`select body as text from documents_fts where rowid = ${seq}`.execute(db)).rows[0]?.text;
  return { columns, refs, media, text, search: search === undefined ? undefined : 'present' };
}

const body = (i: number) => ({
  title: `Bulk post ${i}`,
  slug: `bulk-post-${i}`,
  sku: `BULK-${i}`,
  body: `# Heading ${i}\n\nSome *markdown* with the word zephyr${i % 3}.`,
  content: '<p>Rich <strong>text</strong> é</p>',
  price: i % 50,
  views: i,
  category: ['news', 'guide', 'opinion'][i % 3],
  tags: ['a', `t${i % 4}`],
  author: authors[i % 2],
  seo: { title: `SEO ${i}`, description: 'Described' },
  location: { lat: 1.5, lng: -2.25 },
  publishedOn: '2024-02-29',
  publishAt: '2024-03-01T10:00:00+02:00',
  meta: { nested: [1, 'two', null] },
  _status: 'published',
});

describe('bulk insert', () => {
  it('stores the very rows a create stores (columns, references, search text)', async () => {
    const created = await postDocument(t, admin, 'post', body(9999));
    const viaApi = await storedTraces(created._id);
    const served = await get(`/api/documents/post/${created._id}?expand=author`);
    expect((await t.request({ method: 'DELETE', url: `/api/documents/post/${created._id}`, token: admin })).statusCode).toBe(200);

    await bulk([{ ...body(9999), _id: created._id, _createdAt: created._createdAt }]);
    expect(await storedTraces(created._id)).toEqual(viaApi);
    expect(viaApi.refs.length).toBe(1);
    expect(await get(`/api/documents/post/${created._id}?expand=author`)).toEqual(served);
  });

  it('lists, filters (an indexed field too), searches and expands bulk documents over several batches', async () => {
    const before = await total();
    const published = async () => (await get('/api/documents/post?filter[_status]=published&limit=0')).meta.total as number;
    const publishedBefore = await published();
    const n = BULK_BATCH_SIZE + 5;
    const { inserted, ids } = await bulk(Array.from({ length: n }, (_, i) => body(i)));
    expect([inserted, ids.length, new Set(ids).size]).toEqual([n, n, n]);
    expect(await total()).toBe(before + n);
    expect(await published()).toBe(publishedBefore + n);

    const priced = await get('/api/documents/post?filter[price]=7&limit=100');
    expect(priced.meta.total).toBe(Math.ceil((n - 7) / 50));
    expect(priced.data.every((d: { price: number }) => d.price === 7)).toBe(true);
    const guides = await get('/api/documents/post?filter[category]=guide&filter[price][lt]=3&limit=0');
    expect(guides.meta.total).toBe(Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 1 && i % 50 < 3).length);
    const bySlug = await get('/api/documents/post?filter[slug]=bulk-post-1000');
    expect(bySlug.data.map((d: { title: string }) => d.title)).toEqual(['Bulk post 1000']);

    const found = await get('/api/documents/post?search=zephyr2&limit=0');
    expect(found.meta.total).toBe(Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 2).length);
    const rich = await get('/api/documents/post?search=bulk%20post%201003');
    expect(rich.data.map((d: { title: string }) => d.title)).toEqual(['Bulk post 1003']);

    const page = await get('/api/documents/post?filter[slug]=bulk-post-3&expand=author');
    expect(page.data[0].author).toMatchObject({ _id: authors[1], name: 'Grace' });
    expect(page.data[0]._id).toBe(ids[3]);
    const one = await get(`/api/documents/post/${ids[3]}`);
    expect(one.data).toMatchObject({
      title: 'Bulk post 3',
      _rev: 1,
      _status: 'published',
      _createdBy: actor.id,
      slug: { current: 'bulk-post-3' },
    });
  });

  it('keeps the dates it is given, and the list orders by them', async () => {
    const dates = ['2020-01-03T00:00:00Z', '2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z'];
    await bulk(dates.map((d, i) => ({ title: `Dated ${i}`, slug: `dated-${i}`, _createdAt: d, _status: 'published' })));
    const list = await get('/api/documents/post?filter[title][startsWith]=Dated&order=asc');
    expect(list.data.map((d: { title: string; _updatedAt: string }) => [d.title, d._updatedAt])).toEqual([
      ['Dated 1', '2020-01-01T00:00:00.000Z'],
      ['Dated 2', '2020-01-02T00:00:00.000Z'],
      ['Dated 0', '2020-01-03T00:00:00.000Z'],
    ]);
  });

  it('gives bulk documents revisions as a create does', async () => {
    const [doc] = (await get('/api/documents/post?filter[slug]=bulk-post-4')).data;
    const res = await t.request({ method: 'PATCH', url: `/api/documents/post/${doc._id}`, token: admin, payload: { price: 99 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data._rev).toBe(2);
    const revisions = await get(`/api/documents/post/${doc._id}/revisions`);
    expect(revisions.data.map((r: { _rev: number; data: { price: number } }) => [r._rev, r.data.price])).toEqual([
      [2, 99],
      [1, 4],
    ]);
    expect((await get(`/api/documents/post?filter[price]=99`)).data.map((d: { _id: string }) => d._id)).toEqual([doc._id]);
  });
});

describe('a bad document in a batch', () => {
  const good = (i: number) => ({ title: `Good ${i}`, slug: `good-${i}`, _status: 'published' });

  it('an invalid field: nothing written, 422 naming the document and field', async () => {
    const before = await total();
    const err = await failure(() => bulk([good(1), good(2), { ...good(3), price: -5 }, good(4)]));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([{ field: 'documents.2.price', message: 'must be ≥ 0' }]);
    expect(await total()).toBe(before);
  });

  it('a missing slug is refused, not generated', async () => {
    const before = await total();
    const err = await failure(() => bulk([good(1), { title: 'No slug' }]));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([{ field: 'documents.1.slug', message: 'is required: bulk inserts bring their own slugs' }]);
    expect(await total()).toBe(before);
  });

  it('a slug twice in the call: 400 naming both documents', async () => {
    const before = await total();
    const err = await failure(() => bulk([good(1), good(2), { ...good(3), slug: 'good-1' }]));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details).toEqual([{ field: 'documents.2.slug', message: 'is also the value of documents.0' }]);
    expect(await total()).toBe(before);
  });

  it('a slug or unique value another document holds: 409, and none of the batch is stored', async () => {
    const before = await total();
    const err = await failure(() => bulk([good(5), good(6), { ...good(7), slug: 'bulk-post-1' }]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toMatch(/batch from document 0 was not written/);
    const skuTaken = await failure(() => bulk([good(5), { ...good(6), sku: 'BULK-2' }]));
    expect(skuTaken.code).toBe('CONFLICT');
    expect(await total()).toBe(before);
    expect((await get('/api/documents/post?filter[slug]=good-5')).data).toEqual([]);
  });

  it('a failing batch leaves the batches before it written, and says so', async () => {
    const before = await total();
    const documents = [good(13), good(14), good(15), { ...good(16), slug: 'bulk-post-2' }];
    const err = await failure(() => bulkInsertDocuments(t.app.services, { type: 'post', documents, actor, batchSize: 2 }));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toMatch(/batch from document 2 was not written .*the 2 document\(s\) before it were/);
    expect(await total()).toBe(before + 2);
    expect((await get('/api/documents/post?filter[slug][in]=good-13,good-14,good-15&limit=0')).meta.total).toBe(2);
  });

  it('a reference to a missing document or one of the wrong type: 422, nothing written', async () => {
    const before = await total();
    const [company] = (await get('/api/documents/company?limit=1')).data;
    const err = await failure(() => bulk([good(8), { ...good(9), author: 'nope' }, { ...good(10), author: company._id }]));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([
      { field: 'documents.1.author', message: 'references a missing document nope' },
      { field: 'documents.2.author', message: 'must reference author, not company' },
    ]);
    expect(await total()).toBe(before);
  });

  it('references between documents of the same batch are allowed', async () => {
    const first = { ...good(11), _id: 'bulk-related-a', related: ['bulk-related-b'] };
    const second = { ...good(12), _id: 'bulk-related-b', related: ['bulk-related-a'] };
    await bulk([first, second]);
    const doc = await get('/api/documents/post/bulk-related-a?expand=related');
    expect(doc.data.related.map((d: { _id: string }) => d._id)).toEqual(['bulk-related-b']);
  });
});
