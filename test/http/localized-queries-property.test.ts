import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * The property of docs/localization.md, "Querying": for random documents with random holes in
 * random locales, every filter, order and search answer in a locale equals resolving each
 * document through the locale's chain first and filtering, ordering and searching in memory.
 * The seed is random per run and named in every failure (VELLUM_TEST_SEED repeats one).
 */
const SEED = Number(process.env.VELLUM_TEST_SEED) || Math.floor(Math.random() * 2 ** 31);
const LOCALES = [{ code: 'en' }, { code: 'de' }, { code: 'de-CH', fallback: 'de' }, { code: 'fr', fallback: 'en' }, { code: 'it' }];
const CHAINS: Record<string, string[]> = { en: ['en'], de: ['de'], 'de-CH': ['de-CH', 'de'], fr: ['fr', 'en'], it: ['it'] };
const CODES = LOCALES.map((l) => l.code);
const LOCALIZED = ['title', 'rank', 'tags', 'note'] as const;
const SCHEMAS = [
  {
    name: 'item',
    title: 'Item',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true, indexed: true },
      { name: 'rank', type: 'integer', localized: true, indexed: true },
      { name: 'tags', type: 'array', of: { type: 'string' }, localized: true },
      { name: 'note', type: 'text', localized: true },
      { name: 'code', type: 'string' },
    ],
  },
];
const DOCS = 60;
// Lower-case ASCII only: both engines order and fold these alike, whatever the collation.
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'juniper'];
const TAGS = ['red', 'green', 'blue', 'gold'];

/** mulberry32: a small seeded generator, so a failing run can be repeated. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const chance = (p: number) => random() < p;

type Value = string | number | string[];
interface Made {
  id: string;
  order: number;
  code: string;
  values: Record<(typeof LOCALIZED)[number], Record<string, Value>>;
}

function randomValue(field: (typeof LOCALIZED)[number]): Value {
  if (field === 'title') return `${pick(WORDS)}${pick(WORDS)}`;
  if (field === 'rank') return Math.floor(random() * 8);
  if (field === 'tags') return Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(TAGS));
  return `${pick(WORDS)} ${pick(WORDS)}`;
}

let t: TestApp;
let admin: string;
const made: Made[] = [];

useAdminApp(
  () => startTestApp({ locales: LOCALES, schemas: SCHEMAS }),
  (app, token) => ((t = app), (admin = token)),
);

beforeAll(async () => {
  for (let i = 0; i < DOCS; i++) {
    const values = {} as Made['values'];
    for (const field of LOCALIZED) {
      values[field] = {};
      for (const code of CODES) {
        // The title is required in the default locale; every other value has holes.
        if ((field === 'title' && code === 'en') || chance(0.45)) values[field][code] = randomValue(field);
      }
    }
    const code = `c${i}`;
    const res = await t.request({ method: 'POST', url: '/api/documents/item?locale=*', token: admin, payload: { ...values, code } });
    expect(res.statusCode, res.body).toBe(201);
    made.push({ id: res.json().data._id, order: i, code, values });
  }
});

/** A document as served in `locale`: each localized field from the first locale of the chain that has one. */
function served(doc: Made, locale: string): Record<string, Value | undefined> {
  const out: Record<string, Value | undefined> = { code: doc.code };
  for (const field of LOCALIZED) out[field] = CHAINS[locale].map((c) => doc.values[field][c]).find((v) => v !== undefined);
  return out;
}

type Op = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';
interface Query {
  field: 'title' | 'rank' | 'tags';
  op: Op;
  value: string;
}

function randomQuery(): Query {
  const field = pick(['title', 'rank', 'tags'] as const);
  if (field === 'tags') {
    const op = pick(['eq', 'ne', 'in', 'nin', 'exists'] as const);
    return {
      field,
      op,
      value: op === 'exists' ? String(chance(0.5)) : op === 'in' || op === 'nin' ? `${pick(TAGS)},${pick(TAGS)}` : pick(TAGS),
    };
  }
  if (field === 'rank') {
    const op = pick(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'exists'] as const);
    const n = () => String(Math.floor(random() * 8));
    return { field, op, value: op === 'exists' ? String(chance(0.5)) : op === 'in' || op === 'nin' ? `${n()},${n()}` : n() };
  }
  const op = pick(['eq', 'ne', 'gt', 'lt', 'in', 'contains', 'startsWith', 'exists'] as const);
  const titles = made.flatMap((d) => Object.values(d.values.title)) as string[];
  const value =
    op === 'exists'
      ? String(chance(0.5))
      : op === 'contains'
        ? pick(WORDS).slice(1, 4)
        : op === 'startsWith'
          ? pick(WORDS).slice(0, 3)
          : op === 'in'
            ? `${pick(titles)},${pick(titles)}`
            : pick(titles);
  return { field, op, value };
}

/** Whether a served value passes the filter, as docs/api.md ("List queries") defines each operator. */
function passes(v: Value | undefined, q: Query): boolean {
  const typed = (s: string): string | number => (q.field === 'rank' ? Number(s) : s);
  const list = q.value.split(',').map(typed);
  if (q.op === 'exists') return (v !== undefined) === (q.value === 'true');
  if (Array.isArray(v) || q.field === 'tags') {
    const items = (v as string[] | undefined) ?? [];
    if (q.op === 'eq') return items.includes(q.value);
    if (q.op === 'ne') return !items.includes(q.value);
    if (q.op === 'in') return list.some((x) => items.includes(x as string));
    return !list.some((x) => items.includes(x as string)); // nin
  }
  const x = typed(q.value);
  switch (q.op) {
    case 'eq':
      return v === x;
    case 'ne':
      return v !== x;
    case 'in':
      return v !== undefined && list.includes(v);
    case 'nin':
      return v === undefined || !list.includes(v);
    case 'contains':
      return typeof v === 'string' && v.includes(q.value);
    case 'startsWith':
      return typeof v === 'string' && v.startsWith(q.value);
    default:
      if (v === undefined) return false;
      return q.op === 'gt' ? v > x : q.op === 'gte' ? v >= x : q.op === 'lt' ? v < x : v <= x;
  }
}

/**
 * The order of `docs` by a served field: absent values first ascending and last descending (where
 * lists put them, docs/api.md), ties by creation, in the same direction.
 */
function ordered(docs: Made[], locale: string, field: 'title' | 'rank', direction: 'asc' | 'desc'): Made[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...docs].sort((a, b) => {
    const va = served(a, locale)[field] as string | number | undefined;
    const vb = served(b, locale)[field] as string | number | undefined;
    if (va !== vb) {
      if (va === undefined) return -sign;
      if (vb === undefined) return sign;
      return (va < vb ? -1 : 1) * sign;
    }
    return (a.order - b.order) * sign;
  });
}

async function codesOf(url: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url, token: admin });
  expect(res.statusCode, `${url} (seed ${SEED}): ${res.body}`).toBe(200);
  return res.json().data.map((d: JsonObject) => d.code);
}

describe(`localized queries equal resolving first (seed ${SEED})`, () => {
  it('every filter in every locale, ordered by a localized field', async () => {
    for (const locale of CODES) {
      for (let i = 0; i < 12; i++) {
        const q = randomQuery();
        const orderBy = pick(['title', 'rank'] as const);
        const direction = pick(['asc', 'desc'] as const);
        const url =
          `/api/documents/item?locale=${locale}&limit=100&filter[${q.field}][${q.op}]=${encodeURIComponent(q.value)}` +
          `&orderBy=${orderBy}&order=${direction}`;
        const expected = ordered(
          made.filter((d) => passes(served(d, locale)[q.field], q)),
          locale,
          orderBy,
          direction,
        ).map((d) => d.code);
        expect(await codesOf(url), `${url} (seed ${SEED})`).toEqual(expected);
      }
    }
  });

  it('search in every locale matches the words of the document as served in it', async () => {
    for (const locale of CODES) {
      for (let i = 0; i < 6; i++) {
        // A whole word and a prefix of another (the last word of a search matches as a prefix).
        const words = [pick(WORDS), pick(WORDS).slice(0, 3)];
        const url = `/api/documents/item?locale=${locale}&limit=100&search=${words.join('+')}&orderBy=rank&order=asc`;
        const expected = ordered(
          made.filter((d) => {
            const s = served(d, locale);
            const text = `${s.title ?? ''} ${s.note ?? ''} ${s.code}`;
            // A title is two words run together: only its whole form is a word of the text.
            const tokens = text.split(/\s+/);
            return tokens.includes(words[0]) && tokens.some((w) => w.startsWith(words[1]));
          }),
          locale,
          'rank',
          'asc',
        ).map((d) => d.code);
        expect(await codesOf(url), `${url} (seed ${SEED})`).toEqual(expected);
      }
    }
  });
});
