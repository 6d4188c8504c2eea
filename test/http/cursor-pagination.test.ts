import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * Cursor pagination of document lists (docs/api.md, "Cursor pagination"): `after` from
 * `meta.nextCursor` walks every order the API allows, absent values included, page by page;
 * documents written during the walk neither repeat nor push an original out; anything that is
 * not a cursor of this order is a 400.
 */

let t: TestApp;
let admin: string;

const CATEGORIES = ['news', 'guide', 'opinion'] as const;
const STATUSES = ['published', 'draft', 'published', 'archived'] as const;

useContentApp((app, token) => ((t = app), (admin = token)));
beforeAll(async () => {
  // 26 posts: repeated titles and prices (ties broken by insertion order), prices, views and
  // `seo.title` absent on some, every status, then some edited so `_updatedAt` differs in order.
  for (let i = 0; i < 26; i++) {
    const payload: Record<string, unknown> = {
      title: `Post ${String.fromCharCode(97 + (i % 9))}`,
      category: CATEGORIES[i % 3],
      featured: i % 4 === 0,
      _status: STATUSES[i % 4],
    };
    if (i % 3 !== 0) payload.price = (i % 5) * 2.5;
    if (i % 4 !== 1) payload.views = (i * 7) % 11;
    if (i % 2 === 0) payload.seo = { title: `Seo ${i % 6}` };
    await postDocument(t, admin, 'post', payload);
  }
  const all = await list('/api/documents/post?limit=100&orderBy=_createdAt&order=asc');
  for (const id of all.data.filter((_, i) => i % 5 === 2).map((d) => d._id)) {
    const res = await t.request({ method: 'PATCH', url: `/api/documents/post/${id}`, token: admin, payload: { views: 3 } });
    expect(res.statusCode, res.body).toBe(200);
  }
});

interface Page {
  data: Array<JsonObject & { _id: string }>;
  meta: { total: number; limit: number; offset: number; nextCursor: string | null };
}

async function list(url: string, token: string | null = admin): Promise<Page> {
  const res = await t.request({ method: 'GET', url, token: token ?? undefined });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

/** Every id of a list read as one page (all of them fit): the order a walk must reproduce. */
async function everything(query: string, token: string | null = admin, base = '/api/documents/post'): Promise<string[]> {
  const page = await list(`${base}?limit=100&${query}`, token);
  expect(page.meta.nextCursor).toBeNull();
  expect(page.data.length).toBe(page.meta.total);
  return page.data.map((d) => d._id);
}

/** Walks a list by cursor, `limit` rows a page, running `between` after each page but the last. */
async function walk(
  query: string,
  opts: { limit?: number; token?: string | null; base?: string; between?: (page: Page) => Promise<void> } = {},
): Promise<{ ids: string[]; pages: number }> {
  const limit = opts.limit ?? 4;
  const base = opts.base ?? '/api/documents/post';
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await list(
      `${base}?limit=${limit}&${query}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      opts.token === undefined ? admin : opts.token,
    );
    expect(page.meta.limit).toBe(limit);
    expect(page.meta.offset).toBe(0);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    ids.push(...page.data.map((d) => d._id));
    if (page.meta.nextCursor === null) return { ids, pages };
    expect(typeof page.meta.nextCursor).toBe('string');
    expect(page.data.length).toBe(limit); // only the last page is short
    after = page.meta.nextCursor;
    await opts.between?.(page);
  }
}

const ORDERS = [
  '',
  'orderBy=_createdAt&order=asc',
  'orderBy=_createdAt&order=desc',
  'orderBy=_updatedAt&order=asc',
  'orderBy=_updatedAt&order=desc',
  'orderBy=title&order=asc',
  'orderBy=title&order=desc',
  'orderBy=price&order=asc',
  'orderBy=price&order=desc',
  'orderBy=views&order=asc',
  'orderBy=views&order=desc',
  'orderBy=seo.title&order=asc',
  'orderBy=seo.title&order=desc',
  'orderBy=featured&order=asc',
  'orderBy=_id&order=asc',
  'orderBy=_status&order=desc',
  'orderBy=_rev&order=asc',
  'orderBy=_createdBy&order=desc',
];

describe('walking a list by cursor', () => {
  it.each(ORDERS)('returns the whole list once, in order, for %s', async (order) => {
    const expected = await everything(order);
    expect(expected.length).toBe(26);
    const { ids, pages } = await walk(order);
    expect(ids).toEqual(expected);
    expect(pages).toBe(7); // 6 full pages of 4, then 2
  });

  it('keeps the absent values together: first ascending, last descending', async () => {
    const withoutPrice = new Set((await list('/api/documents/post?limit=100&filter[price][exists]=false')).data.map((d) => d._id));
    expect(withoutPrice.size).toBe(9);
    const asc = (await walk('orderBy=price&order=asc', { limit: 5 })).ids;
    const desc = (await walk('orderBy=price&order=desc', { limit: 5 })).ids;
    expect(asc.slice(0, 9).every((id) => withoutPrice.has(id))).toBe(true);
    expect(desc.slice(-9).every((id) => withoutPrice.has(id))).toBe(true);
  });

  it('walks filtered lists, searches and /collections the same way', async () => {
    for (const query of [
      'filter[category]=guide&orderBy=price&order=asc',
      'filter[views][gte]=3&orderBy=title',
      'search=post&orderBy=views',
    ]) {
      const expected = await everything(query);
      expect(expected.length).toBeGreaterThan(3);
      expect((await walk(query, { limit: 3 })).ids).toEqual(expected);
    }
    const base = '/api/collections/post';
    expect((await walk('orderBy=seo.title&order=desc', { base })).ids).toEqual(
      await everything('orderBy=seo.title&order=desc', admin, base),
    );
  });

  it('walks only the published documents for an anonymous reader', async () => {
    const expected = await everything('orderBy=price&order=desc', null);
    expect(expected.length).toBe(13);
    const { ids } = await walk('orderBy=price&order=desc', { token: null, limit: 3 });
    expect(ids).toEqual(expected);
    const admins = await everything('orderBy=price&order=desc');
    expect(admins.filter((id) => expected.includes(id))).toEqual(expected);
  });

  it('gives nextCursor on offset pages too, so a walk can switch from offset to cursor', async () => {
    const expected = await everything('orderBy=title');
    const page = await list('/api/documents/post?orderBy=title&limit=5&offset=5');
    expect(page.data.map((d) => d._id)).toEqual(expected.slice(5, 10));
    const next = await list(`/api/documents/post?orderBy=title&limit=5&after=${page.meta.nextCursor}`);
    expect(next.data.map((d) => d._id)).toEqual(expected.slice(10, 15));
    expect(next.meta).toMatchObject({ total: 26, limit: 5, offset: 0 });
    // The last page by offset.
    const last = await list('/api/documents/post?orderBy=title&limit=10&offset=20');
    expect(last.data.map((d) => d._id)).toEqual(expected.slice(20));
    expect(last.meta.nextCursor).toBeNull();
  });

  it('gives a cursor for a page of no row (limit=0) that continues where it stands', async () => {
    const expected = await everything('orderBy=price&order=asc');
    const start = await list('/api/documents/post?orderBy=price&order=asc&limit=0');
    expect(start.data).toEqual([]);
    expect(typeof start.meta.nextCursor).toBe('string');
    expect(
      (await list(`/api/documents/post?orderBy=price&order=asc&limit=100&after=${start.meta.nextCursor}`)).data.map((d) => d._id),
    ).toEqual(expected);
    // Inside the null group (the first 9 ascending) and past it.
    for (const offset of [3, 12]) {
      const none = await list(`/api/documents/post?orderBy=price&order=asc&limit=0&offset=${offset}`);
      const rest = await list(`/api/documents/post?orderBy=price&order=asc&limit=100&after=${none.meta.nextCursor}`);
      expect(rest.data.map((d) => d._id)).toEqual(expected.slice(offset));
    }
    expect((await list('/api/documents/post?orderBy=price&limit=0&offset=26')).meta.nextCursor).toBeNull();
  });
});

describe('writes during a walk', () => {
  let counter = 0;
  /** Rising numbers that also sort as text: each insert lands after the one before. */
  const n = () => String(++counter).padStart(4, '0');
  const insert = (payload: Record<string, unknown>) => postDocument(t, admin, 'post', { _status: 'published', ...payload });

  /** A walk with two documents inserted after each page, then: every original exactly once, in order, and no id twice. */
  async function walkWhileInserting(query: string, before: () => Record<string, unknown>, afterIt: () => Record<string, unknown>) {
    const originals = await everything(query);
    const inserted = new Set<string>();
    const { ids } = await walk(query, {
      limit: 8,
      between: async () => {
        inserted.add((await insert(before()))._id);
        inserted.add((await insert(afterIt()))._id);
      },
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !inserted.has(id))).toEqual(originals);
    return { ids, inserted };
  }

  it('by the default order: newer documents go before the walk and are not seen', async () => {
    const { ids, inserted } = await walkWhileInserting(
      '',
      () => ({ title: `New ${n()}` }),
      () => ({ title: `New ${n()}` }),
    );
    expect(ids.filter((id) => inserted.has(id))).toEqual([]);
  });

  it('by a text field: inserts before and after the position', async () => {
    const { ids, inserted } = await walkWhileInserting(
      'orderBy=title&order=asc',
      () => ({ title: `A early ${n()}` }),
      () => ({ title: `Z late ${n()}` }),
    );
    // Those sorting after the position are reached; those before it are not.
    expect(ids.filter((id) => inserted.has(id)).length).toBe(inserted.size / 2);
  });

  it('by a number field with absent values: inserts into the null group and among the numbers', async () => {
    await walkWhileInserting(
      'orderBy=price&order=asc',
      () => ({ title: `No price ${n()}` }),
      () => ({ title: `Priced ${n()}`, price: 3.75 }),
    );
    await walkWhileInserting(
      'orderBy=price&order=desc',
      () => ({ title: `Costly ${n()}`, price: 1000 }),
      () => ({ title: `No price ${n()}` }),
    );
  });
});

describe('cursors that are refused', () => {
  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

  async function refused(query: string) {
    const res = await t.request({ method: 'GET', url: `/api/documents/post?${query}`, token: admin });
    const error = expectSpecError(res, 400, 'INVALID_INPUT');
    expect(error.details?.map((d) => d.field)).toEqual(['after']);
    return error;
  }

  it('is 400 for what is not a cursor', async () => {
    const bad = [
      'not a cursor!',
      '%%%%',
      b64('not json'),
      b64([1, 2]),
      b64('"text"'),
      b64({ o: '_createdAt' }),
      b64({ o: '_createdAt', d: 'sideways' }),
      b64({ o: '_createdAt', d: 'desc', v: '2024-01-01T00:00:00.000Z' }),
      b64({ o: '_createdAt', d: 'desc', s: 3 }),
      b64({ o: '_createdAt', d: 'desc', v: '2024-01-01T00:00:00.000Z', s: -1 }),
      b64({ o: '_createdAt', d: 'desc', v: '2024-01-01T00:00:00.000Z', s: 1.5 }),
      b64({ o: '_createdAt', d: 'desc', v: '2024-01-01T00:00:00.000Z', s: '3' }),
      b64({ o: '_createdAt', d: 'desc', v: null, s: 3 }),
      b64({ o: '_createdAt', d: 'desc', v: 12, s: 3 }),
      b64({ o: '_createdAt', d: 'desc', v: { x: 1 }, s: 3 }),
      b64({ o: '_createdAt', d: 'desc', v: '2024-01-01T00:00:00.000Z', s: 3, extra: true }),
    ];
    for (const cursor of bad) await refused(`after=${encodeURIComponent(cursor)}`);
  });

  it('is 400 for a sort value the ordered field cannot hold, never a database error', async () => {
    await refused(`orderBy=price&order=asc&after=${b64({ o: 'price', d: 'asc', v: 'cheap', s: 3 })}`);
    await refused(`orderBy=views&order=asc&after=${b64({ o: 'views', d: 'asc', v: 2.5, s: 3 })}`);
    await refused(`orderBy=_rev&order=asc&after=${b64({ o: '_rev', d: 'asc', v: 3_000_000_000, s: 3 })}`);
    await refused(`orderBy=_rev&order=asc&after=${b64({ o: '_rev', d: 'asc', v: 'one', s: 3 })}`);
    await refused(`orderBy=featured&order=asc&after=${b64({ o: 'featured', d: 'asc', v: 1, s: 3 })}`);
    // Null is a position only where the value can be absent.
    const ok = await list(`/api/documents/post?orderBy=price&order=asc&after=${b64({ o: 'price', d: 'asc', v: null, s: 0 })}`);
    expect(ok.data.length).toBeGreaterThan(0);
  });

  it('is 400 for a cursor of another order', async () => {
    const page = await list('/api/documents/post?orderBy=title&order=asc&limit=3');
    const cursor = page.meta.nextCursor!;
    const error = await refused(`orderBy=title&order=desc&after=${cursor}`);
    expect(error.details?.[0].message).toMatch(/another order/);
    await refused(`orderBy=price&order=asc&after=${cursor}`);
    await refused(`after=${cursor}`);
    expect((await list(`/api/documents/post?orderBy=title&order=asc&limit=3&after=${cursor}`)).data.length).toBe(3);
  });

  it('is 400 with a non-zero offset, and given twice', async () => {
    const cursor = (await list('/api/documents/post?limit=3')).meta.nextCursor!;
    await refused(`after=${cursor}&offset=3`);
    await refused(`after=${cursor}&after=${cursor}`);
    expect((await list(`/api/documents/post?limit=3&offset=0&after=${cursor}`)).data.length).toBe(3);
    // An empty `after` is no cursor at all.
    expect((await list('/api/documents/post?limit=3&offset=3&after=')).meta.offset).toBe(3);
  });
});
