import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';
import { naturalSortKey } from '../../packages/server/src/storage/natural-sort-key.js';

/** `natural=true` (docs/api.md, "Natural order"): text ordered with its digit runs by value, on both engines. */
let t: TestApp;
let admin: string;

useContentApp((app, token) => {
  t = app;
  admin = token;
});

// Written out of order; `sku`s tell apart the titles that share a key.
const TITLES = ['Chapter 10', 'chapter 2', 'Chapter 1', 'Chapter 9a', 'Chapter 9', 'Chapter 100', 'Émile 3', 'emile 20', 'Chapter 02'];
const NATURAL = ['Chapter 1', 'chapter 2', 'Chapter 02', 'Chapter 9', 'Chapter 9a', 'Chapter 10', 'Chapter 100', 'Émile 3', 'emile 20'];

type Page = { data: Array<{ title: string; _id: string }>; meta: { nextCursor: string | null; total: number } };
const list = async (query: string, token = admin): Promise<Page> => {
  const res = await t.request({ method: 'GET', url: `/api/documents/post?filter[tags]=natural&${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
};
const titles = (page: Page) => page.data.map((d) => d.title);

describe('natural order', () => {
  beforeAll(async () => {
    for (const title of TITLES) await postDocument(t, admin, 'post', { title, tags: ['natural'] });
    // No title: absent values come first ascending and last descending, as in every order.
    await postDocument(t, admin, 'post', { title: 'x', tags: ['natural', 'untitled'] });
  });

  it('orders titles with their numbers by value, ignoring case and accents; ties by insertion order', async () => {
    expect(titles(await list('orderBy=title&order=asc&natural=true&filter[tags][ne]=untitled'))).toEqual(NATURAL);
    // Equal keys (`chapter 2`, `Chapter 02`) are told apart by insertion order, in the list's direction.
    expect(titles(await list('orderBy=title&order=desc&natural=true&filter[tags][ne]=untitled'))).toEqual([...NATURAL].reverse());
    // Without it, text compares as before: "Chapter 10" before "Chapter 2".
    const plain = titles(await list('orderBy=title&order=asc&filter[tags][ne]=untitled'));
    expect(plain.indexOf('Chapter 10')).toBeLessThan(plain.indexOf('Chapter 9'));
    expect(titles(await list('orderBy=title&order=asc&natural=false&filter[tags][ne]=untitled'))).toEqual(plain);
  });

  it('puts documents without the field first ascending and last descending', async () => {
    const id = (await list('filter[tags][eq]=untitled')).data[0]._id;
    expect(
      (await t.request({ method: 'PATCH', url: `/api/documents/post/${id}`, token: admin, payload: { seo: { title: 'Chapter 5' } } }))
        .statusCode,
    ).toBe(200);
    const asc = await list('orderBy=seo.title&order=asc&natural=true');
    expect(asc.data.at(-1)?._id).toBe(id);
    const desc = await list('orderBy=seo.title&order=desc&natural=true');
    expect(desc.data[0]._id).toBe(id);
    // The others have no `seo.title`: in insertion order after it (descending: before it, newest first).
    expect(desc.data.slice(1).map((d) => d.title)).toEqual([...TITLES].reverse());
  });

  it('walks by cursor page after page to the same order, with a search too (SQLite: on the read worker)', async () => {
    for (const extra of ['', '&search=chapter']) {
      const whole = titles(await list(`orderBy=title&order=asc&natural=true&filter[tags][ne]=untitled${extra}`));
      const walked: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: Page = await list(`orderBy=title&order=asc&natural=true&filter[tags][ne]=untitled&limit=2${extra}&after=${cursor}`);
        walked.push(...titles(page));
        cursor = page.meta.nextCursor;
      }
      expect(walked).toEqual(whole);
      expect(whole.length).toBe(extra ? 7 : NATURAL.length);
    }
  });

  it('keeps a cursor to its own order: natural and plain cursors are not interchangeable', async () => {
    const natural = (await list('orderBy=title&order=asc&natural=true&limit=2')).meta.nextCursor!;
    const plain = (await list('orderBy=title&order=asc&limit=2')).meta.nextCursor!;
    for (const url of [`orderBy=title&order=asc&after=${natural}`, `orderBy=title&order=asc&natural=true&after=${plain}`]) {
      const res = await t.request({ method: 'GET', url: `/api/documents/post?${url}`, token: admin });
      expect(expectSpecError(res, 400, 'INVALID_INPUT').details).toEqual([
        { field: 'after', message: expect.stringMatching(/another order/) },
      ]);
    }
  });

  it('refuses natural on what is not text, and values other than true or false', async () => {
    for (const [query, message] of [
      ['orderBy=price&natural=true', /text fields only/],
      ['orderBy=_createdAt&natural=true', /text fields only/],
      ['orderBy=title&natural=yes', /true or false/],
      ['orderBy=title&natural=true&natural=true', /once/],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/api/documents/post?${query}`, token: admin });
      expect(expectSpecError(res, 400, 'INVALID_INPUT').details).toEqual([{ field: 'natural', message: expect.stringMatching(message) }]);
    }
  });

  it('the database computes the same key as natural-sort-key.ts (SQLite calls it; PostgreSQL computes it in SQL)', async () => {
    const samples = [
      'Chapter 9a',
      'Émile 007',
      'CRÈME brûlée 12',
      'v1.10.0',
      'x 18446744073709551615',
      'x 000123456789012345678901',
      '000',
      'a0b00c',
      '',
    ];
    const { db, dialect } = t.app.services.database;
    for (const s of samples) {
      const { rows } = await sql<{ k: string }>`select ${dialect.naturalKey(sql`cast(${s} as text)`)} as k`.execute(db);
      expect(rows[0].k, s).toBe(naturalSortKey(s));
    }
  });
});
