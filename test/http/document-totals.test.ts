import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { spyQueries } from '../helpers/query-spy.js';

/**
 * `meta.total` (docs/api.md, "Totals"): a type, or a type and status, is answered from counts
 * the database keeps in every write's transaction; they must stay exact through every kind of
 * write. Any other filter counts up to `documents.countLimit` and says when it stopped there.
 */
let t: TestApp;
let admin: string;
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, documents: { countLimit: 3, responseCache: false } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const list = async (query: string, token?: string) => {
  const res = await t.request({ method: 'GET', url: `/api/documents/post?limit=1${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  const meta = res.json().meta as { total: number; totalExact?: boolean };
  // Just the total and whether it says it is bounded (`totalExact` is absent when exact).
  return 'totalExact' in meta ? { total: meta.total, totalExact: meta.totalExact } : { total: meta.total };
};

/** The documents actually stored, per status: what every maintained total must equal. */
async function stored(): Promise<Record<string, number>> {
  const { rows } = await sql<{ status: string; n: number | string }>`
    select status, count(*) as n from documents where type = 'post' group by status`.execute(t.app.services.database.db);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Every maintained shape against the stored rows. */
async function expectExactTotals() {
  const s = await stored();
  const n = (...statuses: string[]) => statuses.reduce((sum, x) => sum + (s[x] ?? 0), 0);
  expect(await list('', admin)).toEqual({ total: n('draft', 'published', 'archived') });
  expect((await list('')).total).toBe(n('published')); // anonymous: published only
  expect((await list('&filter[_status]=published', admin)).total).toBe(n('published'));
  expect((await list('&filter[_status]=draft', admin)).total).toBe(n('draft'));
  expect((await list('&filter[_status][ne]=draft', admin)).total).toBe(n('published', 'archived'));
  expect((await list('&filter[_status][in]=draft,archived', admin)).total).toBe(n('draft', 'archived'));
  expect((await list('&filter[_status][nin]=published', admin)).total).toBe(n('draft', 'archived'));
  expect((await list('&filter[_status]=draft')).total).toBe(0); // anonymous asking for drafts sees none
  // Above countLimit (3) and still exact: these shapes never count rows.
  for (const q of ['', '&filter[_status]=published']) expect((await list(q, admin)).totalExact).toBeUndefined();
}

const create = async (title: string, status: string, extra: Record<string, unknown> = {}) => {
  const res = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title, _status: status, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data._id as string;
};
const patch = async (id: string, payload: Record<string, unknown>) => {
  const res = await t.request({ method: 'PATCH', url: `/api/documents/post/${id}`, token: admin, payload });
  expect(res.statusCode, res.body).toBe(200);
};

describe('maintained totals stay exact', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) ids.push(await create(`Published ${i}`, 'published'));
    for (let i = 0; i < 3; i++) ids.push(await create(`Draft ${i}`, 'draft'));
    ids.push(await create('Archived 0', 'archived'));
  });

  it('after creates in every status', async () => {
    expect(await stored()).toEqual({ published: 4, draft: 3, archived: 1 });
    await expectExactTotals();
  });

  it('through status changes (PATCH and PUT), and edits that keep the status', async () => {
    await patch(ids[4], { _status: 'published' }); // draft → published
    await patch(ids[0], { _status: 'archived' }); // published → archived
    await patch(ids[1], { title: 'Published 1, edited' }); // same status
    const put = await t.request({
      method: 'PUT',
      url: `/api/documents/post/${ids[2]}`,
      token: admin,
      payload: { title: 'Put', _status: 'draft' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await stored()).toEqual({ published: 3, draft: 3, archived: 2 });
    await expectExactTotals();
  });

  it('through deletes', async () => {
    const del = await t.request({ method: 'DELETE', url: `/api/documents/post/${ids[7]}`, token: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect(await stored()).toEqual({ published: 3, draft: 3, archived: 1 });
    await expectExactTotals();
  });

  it('through restores (a restore keeps the current status: no total moves)', async () => {
    // ids[4] was created as a draft (rev 1) and published (rev 2); restoring rev 1 keeps it published.
    const before = await stored();
    const res = await t.request({ method: 'POST', url: `/api/documents/post/${ids[4]}/revisions/1/restore`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data._status).toBe('published');
    expect(await stored()).toEqual(before);
    await expectExactTotals();
  });

  it('through imports (as `vellum import` replays: a create with its `_id`, then later versions by PUT)', async () => {
    for (const [i, [first, last]] of [
      ['published', 'draft'],
      ['draft', 'published'],
      ['archived', 'archived'],
    ].entries()) {
      const id = `0190c8a2-7b3e-7000-8000-00000000000${i}`;
      const created = await t.request({
        method: 'POST',
        url: '/api/documents/post',
        token: admin,
        payload: { _id: id, title: `Imported ${i}`, _status: first },
      });
      expect(created.statusCode, created.body).toBe(201);
      const put = await t.request({
        method: 'PUT',
        url: `/api/documents/post/${id}`,
        token: admin,
        payload: { title: `Imported ${i} v2`, _status: last },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    expect(await stored()).toEqual({ published: 4, draft: 4, archived: 2 });
    await expectExactTotals();
  });

  it('refused writes change no total (422, 409, 412)', async () => {
    const before = await stored();
    const bad = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { _status: 'published' } });
    expect(bad.statusCode).toBe(422);
    await create('With sku', 'draft', { sku: 'SKU-1' });
    const taken = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'Dup', sku: 'SKU-1', _status: 'published' },
    });
    expect(taken.statusCode).toBe(409);
    const stale = await t.request({
      method: 'PATCH',
      url: `/api/documents/post/${ids[3]}`,
      token: admin,
      headers: { 'if-match': '"99"' },
      payload: { _status: 'draft' },
    });
    expect(stale.statusCode).toBe(412);
    expect(await stored()).toEqual({ ...before, draft: before.draft + 1 });
    await expectExactTotals();
  });

  it('through concurrent writers moving documents between statuses in both directions', async () => {
    const fresh = await Promise.all(Array.from({ length: 24 }, (_, i) => create(`Concurrent ${i}`, i % 2 ? 'draft' : 'published')));
    // Each document flips twice at once with others flipping the other way: counter rows are taken in both orders.
    const flip = (id: string, i: number) => patch(id, { _status: i % 2 ? 'published' : 'draft' });
    await Promise.all(fresh.map(flip));
    await Promise.all(fresh.map((id, i) => flip(id, i + 1)));
    await Promise.all(fresh.slice(0, 6).map((id) => t.request({ method: 'DELETE', url: `/api/documents/post/${id}`, token: admin })));
    await expectExactTotals();
  });

  it('the maintained counts equal the stored rows for every type', async () => {
    const db = t.app.services.database.db;
    const counted = await sql<{ type: string; status: string; n: number | string }>`
      select type, status, sum(n) as n from document_counts group by type, status having sum(n) <> 0 order by type, status`.execute(db);
    const actual = await sql<{ type: string; status: string; n: number | string }>`
      select type, status, count(*) as n from documents group by type, status order by type, status`.execute(db);
    const norm = (rows: Array<{ type: string; status: string; n: number | string }>) => rows.map((r) => ({ ...r, n: Number(r.n) }));
    expect(norm(counted.rows)).toEqual(norm(actual.rows));
  });
});

describe('bounded totals', () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await create(`Bounded many ${i}`, 'published', { category: 'guide' });
    for (let i = 0; i < 2; i++) await create(`Bounded few ${i}`, 'published', { category: 'opinion' });
  });

  it('a filter with more matches than countLimit gives the limit as a lower bound and says so', async () => {
    expect(await list('&filter[category]=guide', admin)).toEqual({ total: 3, totalExact: false });
    expect(await list('&search=bounded', admin)).toEqual({ total: 3, totalExact: false });
  });

  it('a filter with no more matches than countLimit is exact and says nothing more', async () => {
    expect(await list('&filter[category]=opinion', admin)).toEqual({ total: 2 });
    expect(await list('&search=bounded+few', admin)).toEqual({ total: 2 });
    // A status filter beside another filter is no maintained shape: counted, here exactly.
    expect(await list('&filter[category]=opinion&filter[_status]=published', admin)).toEqual({ total: 2 });
  });

  it('requests arriving together share one count', async () => {
    const counts: string[] = [];
    const restore = spyQueries(t, (text) => {
      if (/count\(\*\)/i.test(text)) counts.push(text);
    });
    try {
      // A write first, so no count of this shape is kept from before.
      await create('Bounded many 5', 'published', { category: 'guide' });
      counts.length = 0;
      const metas = await Promise.all(Array.from({ length: 8 }, () => list('&filter[category]=guide', admin)));
      expect(metas.every((m) => m.total === 3 && m.totalExact === false)).toBe(true);
      expect(counts).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
