import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import type { PlanReader } from '../helpers/explain-plan.js';
import { DOCUMENTS, planExpectations, type Statement } from '../helpers/plan-expectations.js';
import { spyQueries } from '../helpers/query-spy.js';
import { useSeededPlanApp } from '../helpers/use-seeded-plan-app.js';
import { seedPostId } from '../helpers/seed-documents-by-sql.js';

/**
 * The read paths of the documents API on a large type (issue 14): every statement the app sends
 * on `documents` for a list, a filter, a deep page, a read by id and an expansion is explained on
 * the seeded database, and must reach its rows through an index (never a sequential scan of
 * `documents`), with the page order read off the index rather than sorted.
 *
 * PostgreSQL's plans depend on the table's size, so it gets a large one (500 000 posts seed in
 * about 20 s on a loaded two-core machine; VELLUM_TEST_PLAN_POSTS=1000000 checks a million, which
 * plans the same); SQLite's planner only needs the statistics of `analyze`. Counting (the
 * `meta.total` of a list) has its own tests at the end.
 */
const POSTS = Number(process.env.VELLUM_TEST_PLAN_POSTS) || (dialect === 'postgres' ? 500_000 : 200_000);

/** Just what the paths read: an indexed number, a select (indexed as every select is), a reference. */
const SCHEMAS = [
  { name: 'author', title: 'Author', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'category', type: 'select', options: ['news', 'guide', 'opinion'] },
      { name: 'price', type: 'number', indexed: true },
      { name: 'author', type: 'reference', to: 'author' },
    ],
  },
];

const PG = dialect === 'postgres';
/** The index behind `documents.seq` (the deferred join's second step) and behind `documents.id`. */
const BY_SEQ = PG ? 'documents_pkey' : 'INTEGER PRIMARY KEY';
const BY_ID = PG ? 'documents_id_key' : 'sqlite_autoindex_documents_1';

let t: TestApp;
let admin: string;
let plans: PlanReader;

useSeededPlanApp(SCHEMAS, POSTS, (app, token, reader) => ((t = app), (admin = token), (plans = reader)));

const { describePlan, expectIndexed, expectPlans } = planExpectations(() => ({ t, admin, plans }));

/** The deferred join sorts its one page of full rows again, by the same key. */
const DEFERRED_PAGE = 1;

describe('list paths', () => {
  it('the default list (newest first) walks (type, created_at, seq) backwards', async () => {
    await expectPlans('/api/documents/post', [{ uses: ['documents_type_created'] }]);
  });

  it('a list ordered by _updatedAt walks (type, updated_at, seq)', async () => {
    await expectPlans('/api/documents/post?orderBy=_updatedAt&order=asc', [{ uses: ['documents_type_updated'] }]);
  });

  it('an anonymous reader’s list (published only) walks (type, status, created_at, seq)', async () => {
    await expectPlans('/api/documents/post?limit=5', [{ uses: ['documents_type_status_created'] }], 'anonymous');
  });

  it('a list ordered by an indexed field walks its field index, in both directions', async () => {
    await expectPlans('/api/documents/post?orderBy=price', [{ uses: ['vx_post_price'] }]);
    await expectPlans('/api/documents/post?orderBy=price&order=asc', [{ uses: ['vx_post_price'] }]);
  });
});

describe('lists under perspective=drafts', () => {
  it('the default list joins each document to its pending draft and still walks (type, created_at, seq)', async () => {
    await expectPlans('/api/documents/post?perspective=drafts', [{ uses: ['documents_type_created'] }]);
  });

  it('offset 500 under drafts is a deferred join too', async () => {
    await expectPlans('/api/documents/post?perspective=drafts&offset=500', [{ uses: ['documents_type_created'], sorts: DEFERRED_PAGE }]);
  });

  it('filter[_status] under drafts walks (type, status, created_at, seq): a draft keeps its document’s status', async () => {
    await expectPlans('/api/documents/post?perspective=drafts&filter[_status]=draft&limit=5', [
      { uses: ['documents_type_status_created'] },
    ]);
  });
});

describe('filter paths', () => {
  it('filter[_status] walks (type, status, created_at, seq)', async () => {
    await expectPlans('/api/documents/post?filter[_status]=draft', [{ uses: ['documents_type_status_created'] }]);
  });

  it('equality on an indexed field seeks its index and sorts only the matches', async () => {
    await expectPlans('/api/documents/post?filter[price]=12.5', [{ uses: ['vx_post_price'], sorts: 1 }]);
  });

  it('a range on an indexed field, ordered by it, is one range of its index', async () => {
    await expectPlans('/api/documents/post?filter[price][gt]=990&orderBy=price', [{ uses: ['vx_post_price'] }]);
    await expectPlans('/api/documents/post?filter[price][lte]=5&orderBy=price&order=asc', [{ uses: ['vx_post_price'] }]);
  });

  it('a filter on a select field reads through an index', async () => {
    await expectPlans('/api/documents/post?filter[category]=guide', [{ uses: [] }]);
  });
});

describe('deep pages', () => {
  it('offset 500 chooses the page on the index, then reads its rows by seq (deferred join)', async () => {
    await expectPlans('/api/documents/post?offset=500', [{ uses: ['documents_type_created', BY_SEQ], sorts: DEFERRED_PAGE }]);
  });

  it('offset 5000 ordered by an indexed field is a deferred join on the field index', async () => {
    await expectPlans('/api/documents/post?offset=5000&orderBy=price', [{ uses: ['vx_post_price', BY_SEQ], sorts: DEFERRED_PAGE }]);
  });

  it('offset 5000 finds the anchor on the index, then the page starts right after it', async () => {
    await expectPlans('/api/documents/post?offset=5000', [
      { uses: ['documents_type_created'] }, // findPageAnchor: the row at 4999
      { uses: ['documents_type_created'] }, // the page after the anchor
    ]);
  });

  it('offset 1500 starts after the anchor at 1000 and skips the rest on the index', async () => {
    await expectPlans('/api/documents/post?offset=1500&orderBy=_updatedAt', [
      { uses: ['documents_type_updated'] },
      { uses: ['documents_type_updated', BY_SEQ], sorts: DEFERRED_PAGE },
    ]);
  });
});

describe('reads by id', () => {
  it('a document by id seeks the id index', async () => {
    await expectPlans(`/api/documents/post/${seedPostId(77)}`, [{ uses: [BY_ID] }]);
  });

  it('expanding a reference looks the targets up by id, for a page and for one document', async () => {
    await expectPlans('/api/documents/post?expand=author', [{ uses: ['documents_type_created'] }, { uses: [BY_ID] }]);
    await expectPlans(`/api/documents/post/${seedPostId(78)}?expand=author`, [{ uses: [BY_ID] }, { uses: [BY_ID] }]);
  });
});

/** The counting statements one request sends: on the counts table, or a count over documents. */
async function countStatementsOf(url: string): Promise<Statement[]> {
  const seen: Statement[] = [];
  const restore = spyQueries(t, (sql, parameters) => {
    if (/\bdocument_counts\b/.test(sql) || /^\s*select count\(/i.test(sql)) seen.push({ sql, parameters });
  });
  try {
    // A write first: totals are kept per query until the type is written, and this must count.
    const write = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: 'Counted', _status: 'draft' },
    });
    expect(write.statusCode, write.body).toBe(201);
    const res = await t.request({ method: 'GET', url, token: admin });
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    restore();
  }
  return seen;
}

describe('count paths (meta.total)', () => {
  it('a type, and a type and status, read the maintained counts: no statement counts documents', async () => {
    for (const url of [
      '/api/documents/post',
      '/api/documents/post?filter[_status]=published',
      '/api/documents/post?filter[_status][ne]=draft',
    ]) {
      const statements = await countStatementsOf(url);
      expect(
        statements.map((s) => s.sql),
        url,
      ).toHaveLength(1);
      expect(statements[0].sql).toMatch(/from document_counts/);
      const plan = await plans.explain(statements[0].sql, statements[0].parameters);
      expect(
        plan.accesses.filter((a) => DOCUMENTS.has(a.table)),
        describePlan(statements[0], plan),
      ).toEqual([]);
    }
    const res = await t.request({ method: 'GET', url: '/api/documents/post?limit=0', token: admin });
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from documents where type = 'post'`.execute(
      t.app.services.database.db,
    );
    expect(res.json().meta).toMatchObject({ total: Number(rows[0].n) });
    expect(Number(rows[0].n)).toBeGreaterThan(POSTS);
  });

  it('any other filter counts at most countLimit rows, through the index that serves it', async () => {
    for (const [url, index] of [
      ['/api/documents/post?filter[price][gt]=500&orderBy=price', 'vx_post_price'],
      ['/api/documents/post?filter[price][gt]=500', 'documents_type_created'],
      ['/api/documents/post?filter[category]=guide', 'documents_type_created'],
    ] as const) {
      const statements = await countStatementsOf(url);
      expect(
        statements.map((s) => s.sql),
        url,
      ).toHaveLength(1);
      expect(statements[0].sql).toMatch(/limit/i);
      expectIndexed(statements[0], await plans.explain(statements[0].sql, statements[0].parameters), { uses: index ? [index] : [] });
      const res = await t.request({ method: 'GET', url: `${url}&limit=0`, token: admin });
      expect(res.json().meta).toMatchObject({ total: 10_000, totalExact: false });
    }
  });
});
