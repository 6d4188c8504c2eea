import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * Values of list-query parameters that a database could read differently (out of its integer
 * range, not finite, not of the field's type) get one answer on both dialects: 400 INVALID_INPUT
 * naming the parameter, or the documents listed here (docs/api.md, "List queries"). This file
 * runs in the `sqlite` and the `postgres` project with the same table.
 */
let t: TestApp;
let admin: string;

useContentApp((app, token) => ((t = app), (admin = token)));

beforeAll(async () => {
  // Every post is published, so anonymous readers and the admin see the same documents.
  const posts = [
    { title: 'Alpha', price: 10, views: 100, featured: true, publishedOn: '2024-01-10', publishAt: '2024-01-10T08:00:00Z' },
    { title: 'Beta', price: 2.5, views: 5 },
    { title: 'Gamma', price: 100, views: 0, featured: false },
  ];
  for (const p of posts) await postDocument(t, admin, 'post', { ...p, _status: 'published' });
});

const ALL = ['Alpha', 'Beta', 'Gamma'];

/** [query string, expected titles (any order)] or [query string, the parameter a 400 INVALID_INPUT names]. */
type Row = [string, string[]] | [string, { invalid: string }];
const invalid = (param: string) => ({ invalid: param });

const TABLE: Row[] = [
  // `_rev` is a 32-bit integer column.
  ['filter[_rev]=1', ALL],
  ['filter[_rev][gt]=0', ALL],
  ['filter[_rev]=2147483647', []],
  ['filter[_rev][gte]=-2147483648', ALL],
  ['filter[_rev]=1.5', invalid('filter[_rev]')],
  ['filter[_rev]=3000000000', invalid('filter[_rev]')],
  ['filter[_rev]=2147483648', invalid('filter[_rev]')],
  ['filter[_rev][lt]=-2147483649', invalid('filter[_rev][lt]')],
  ['filter[_rev]=1e400', invalid('filter[_rev]')],
  ['filter[_rev]=1e0', invalid('filter[_rev]')],
  ['filter[_rev][in]=1,2.5', invalid('filter[_rev][in]')],
  ['filter[_rev][in]=1,3000000000', invalid('filter[_rev][in]')],
  ['filter[_rev][in]=1,2', ALL],
  // Integer fields: whole numbers within ±(2^53 − 1).
  ['filter[views]=5', ['Beta']],
  ['filter[views][gt]=-1', ALL],
  ['filter[views][lt]=9007199254740991', ALL],
  ['filter[views][gt]=-9007199254740991', ALL],
  ['filter[views]=1.5', invalid('filter[views]')],
  ['filter[views]=9007199254740992', invalid('filter[views]')],
  ['filter[views]=99999999999999999999', invalid('filter[views]')],
  ['filter[views]=1e400', invalid('filter[views]')],
  ['filter[views][in]=100,2.5', invalid('filter[views][in]')],
  ['filter[views][in]=100,5', ['Alpha', 'Beta']],
  // Number fields: any finite number.
  ['filter[price]=2.5', ['Beta']],
  ['filter[price][in]=10,2.5', ['Alpha', 'Beta']],
  ['filter[price][gt]=1e300', []],
  ['filter[price][gt]=-1e300', ALL],
  ['filter[price][gte]=1e2', ['Gamma']],
  ['filter[price][lt]=99999999999999999999', ALL],
  ['filter[price]=1e400', invalid('filter[price]')],
  ['filter[price][lt]=-1e400', invalid('filter[price][lt]')],
  ['filter[price][in]=10,1e400', invalid('filter[price][in]')],
  ['filter[price]=abc', invalid('filter[price]')],
  ['filter[price]=Infinity', invalid('filter[price]')],
  ['filter[price]=NaN', invalid('filter[price]')],
  ['filter[price]=0x10', invalid('filter[price]')],
  ['filter[price]=', invalid('filter[price]')],
  ['filter[price][in]=', invalid('filter[price][in]')],
  // Empty lists and values of text fields compare with the empty string.
  ['filter[title][in]=', []],
  ['filter[title][nin]=', ALL],
  ['filter[title]=', []],
  ['filter[title][in]=Alpha,', ['Alpha']],
  // Dates and date-times.
  ['filter[_createdAt][gt]=2000-01-01', ALL],
  ['filter[_createdAt][gt]=9999-12-31T23:59:59.999Z', []],
  ['filter[_createdAt][gt]=yesterday', invalid('filter[_createdAt][gt]')],
  ['filter[_createdAt][gt]=2024-13-45', invalid('filter[_createdAt][gt]')],
  ['filter[_createdAt]=1700000000', invalid('filter[_createdAt]')],
  ['filter[_updatedAt][lt]=', invalid('filter[_updatedAt][lt]')],
  ['filter[publishAt][gte]=2024-01-10T09:00:00%2B01:00', ['Alpha']],
  ['filter[publishAt][gt]=2024-01-10T09:00:00%2B01:00', []],
  ['filter[publishedOn]=2024-01-10', ['Alpha']],
  ['filter[publishedOn]=2024-1-10', invalid('filter[publishedOn]')],
  // Booleans and exists.
  ['filter[featured]=true', ['Alpha']],
  ['filter[featured]=1', invalid('filter[featured]')],
  ['filter[publishedOn][exists]=false', ['Beta', 'Gamma']],
  ['filter[featured][exists]=yes', invalid('filter[featured][exists]')],
  ['filter[price][exists]=1', invalid('filter[price][exists]')],
  // Paging.
  ['offset=2147483647', []],
  ['offset=1e400', invalid('offset')],
  ['offset=99999999999999999999', invalid('offset')],
  ['offset=2147483648', invalid('offset')],
  ['offset=-1', invalid('offset')],
  ['offset=1.5', invalid('offset')],
  ['limit=1e400', invalid('limit')],
  ['limit=99999999999999999999', invalid('limit')],
  ['limit=-1', invalid('limit')],
];

describe.each([
  ['anonymously', () => undefined],
  ['signed in', () => admin],
])('filter values, %s', (_who, token) => {
  it.each(TABLE)('%s', async (query, expected) => {
    const res = await t.request({ method: 'GET', url: `/api/documents/post?${query}`, token: token() });
    if (Array.isArray(expected)) {
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res
          .json()
          .data.map((d: { title: string }) => d.title)
          .sort(),
      ).toEqual(expected);
    } else {
      expect(res.statusCode, res.body).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain(expected.invalid);
      expect(error.details?.[0]?.field).toBe(expected.invalid);
    }
  });
});
