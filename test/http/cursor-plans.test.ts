import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import type { Plan, PlanReader } from '../helpers/explain-plan.js';
import { spyQueries } from '../helpers/query-spy.js';
import { useSeededPlanApp } from '../helpers/use-seeded-plan-app.js';

/**
 * A page after a cursor (docs/api.md, "Cursor pagination") starts at its position on the order's
 * index: on a large type every statement reaches `documents` through that index, never a
 * sequential scan, and on PostgreSQL the position is part of the index condition (a seek), not a
 * filter applied while walking the index from its start. Absent values are their own range.
 */
const POSTS = 200_000;
const PG = dialect === 'postgres';

const SCHEMAS = [
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'category', type: 'select', options: ['news', 'guide', 'opinion'] },
      { name: 'price', type: 'number', indexed: true },
    ],
  },
];

let t: TestApp;
let admin: string;
let plans: PlanReader;

useSeededPlanApp(SCHEMAS, POSTS, (app, token, reader) => ((t = app), (admin = token), (plans = reader)));

async function get(url: string) {
  const res = await t.request({ method: 'GET', url, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<{ price?: number }>; meta: { nextCursor: string | null } };
}

/** The plans of the statements on `documents` (counting left out) that reading `url` sends. */
async function plansOf(url: string): Promise<Plan[]> {
  const seen: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const restore = spyQueries(t, (sql, parameters) => {
    if (/\bdocuments\b/.test(sql) && !/^\s*select count\(/i.test(sql)) seen.push({ sql, parameters });
  });
  try {
    await get(url);
  } finally {
    restore();
  }
  expect(seen).toHaveLength(1);
  return Promise.all(seen.map((s) => plans.explain(s.sql, s.parameters)));
}

/** Every read of `documents` goes through `index`; on PostgreSQL each one seeks `conds` (one per range) and filters nothing. */
async function expectSeeks(url: string, index: string, conds: RegExp[]) {
  const [plan] = await plansOf(url);
  const reads = plan.accesses.filter((a) => a.table === 'documents');
  expect(reads.length, plan.text).toBe(conds.length);
  for (const r of reads) expect(r, plan.text).toMatchObject({ kind: 'index', index });
  if (!PG) return;
  // The nodes that read `documents` (a reader of every status also probes each row's pending
  // draft by its key, a seek of its own: docs/drafts.md, "Markers").
  const nodes = documentNodes(JSON.parse(plan.text) as PlanNode);
  const indexConds = nodes.flatMap((n) => (n['Index Cond'] ? [n['Index Cond']] : []));
  expect(indexConds.length, plan.text).toBe(conds.length);
  conds.forEach((cond, i) => expect(indexConds[i], plan.text).toMatch(cond));
  expect(
    nodes.some((n) => n.Filter !== undefined),
    plan.text,
  ).toBe(false);
}

interface PlanNode {
  'Relation Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

function documentNodes(node: PlanNode): PlanNode[] {
  const own = node['Relation Name'] === 'documents' ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(documentNodes)];
}

/** The cursor after the first `n` documents of a list. */
async function cursorAt(query: string, n: number): Promise<string> {
  const page = await get(`/api/documents/post?${query}&limit=0&offset=${n}`);
  expect(typeof page.meta.nextCursor).toBe('string');
  return page.meta.nextCursor!;
}

const ROW = /ROW\(/;
const ABSENT = /IS NULL\).*seq [<>]/;

describe('a page after a cursor', () => {
  it('by the default order seeks (type, created_at, seq)', async () => {
    const after = await cursorAt('', 150_000);
    await expectSeeks(`/api/documents/post?after=${after}`, 'documents_type_created', [ROW]);
  });

  it('by _updatedAt seeks (type, updated_at, seq)', async () => {
    const after = await cursorAt('orderBy=_updatedAt&order=asc', 150_000);
    await expectSeeks(`/api/documents/post?orderBy=_updatedAt&order=asc&after=${after}`, 'documents_type_updated', [ROW]);
  });

  it('by an indexed field seeks its index, past a value and inside the absent ones, both ways', async () => {
    // Ascending: 4 000 absent prices come first.
    const amongPrices = await cursorAt('orderBy=price&order=asc', 150_000);
    await expectSeeks(`/api/documents/post?orderBy=price&order=asc&after=${amongPrices}`, 'vx_post_price', [ROW]);
    const amongAbsent = await cursorAt('orderBy=price&order=asc', 2_000);
    await expectSeeks(`/api/documents/post?orderBy=price&order=asc&after=${amongAbsent}`, 'vx_post_price', [ABSENT, /IS NOT NULL/]);
    // Descending: the absent ones come last.
    const desc = await cursorAt('orderBy=price&order=desc', 150_000);
    await expectSeeks(`/api/documents/post?orderBy=price&order=desc&after=${desc}`, 'vx_post_price', [ROW, /IS NULL/]);
    const descAbsent = await cursorAt('orderBy=price&order=desc', POSTS - 2_000);
    await expectSeeks(`/api/documents/post?orderBy=price&order=desc&after=${descAbsent}`, 'vx_post_price', [ABSENT]);
  });
});
