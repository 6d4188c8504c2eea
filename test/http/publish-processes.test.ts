import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/database.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

// Publishing and schedules across real `vellum serve` processes (docs/drafts.md, "Publishing";
// docs/schedules.md, "Running"): a node killed with SIGKILL in the middle of a publish of 50
// documents, and two nodes running the same due schedules. Each test has a database of its own.
const SCHEMAS = [
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'links', type: 'array', of: { type: 'reference', to: 'page' } },
    ],
  },
];

let db: TestDatabase | undefined;
let cwd: string | undefined;
const running: ServeProcess[] = [];

afterEach(async () => {
  for (const p of running.splice(0)) await p.kill();
  await db?.drop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  db = cwd = undefined;
});

async function setUp(): Promise<void> {
  db = await createTestDatabase();
  cwd = mkdtempSync(join(tmpdir(), 'vellum-publish-'));
  const config = { database: { url: db.url }, security: { adminUser: ADMIN, bcryptRounds: 4 }, schemas: SCHEMAS };
  writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify(config));
}

async function serve(env: Record<string, string> = {}): Promise<ServeProcess> {
  const p = await startServe(cwd as string, env);
  running.push(p);
  return p;
}

async function call(
  p: ServeProcess,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: ReturnType<typeof JSON.parse> }> {
  const res = await fetch(`${p.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function signIn(p: ServeProcess): Promise<string> {
  const res = await fetch(`${p.api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** 49 draft pages and a root draft page that links to each: publishing the root with its references publishes 50. */
async function fiftyPages(p: ServeProcess, token: string): Promise<{ root: string; ids: string[] }> {
  const ids: string[] = [];
  for (let i = 0; i < 49; i++) {
    const res = await call(p, token, 'POST', '/documents/page', { title: `Linked ${i}` });
    expect(res.status).toBe(201);
    ids.push(res.json.data._id as string);
  }
  const root = await call(p, token, 'POST', '/documents/page', { title: 'Root', links: ids });
  expect(root.status).toBe(201);
  return { root: root.json.data._id as string, ids: [...ids, root.json.data._id as string] };
}

/** The statuses of `ids`, counted: `{draft: 50}` or `{published: 50}` when all or nothing was published. */
async function statuses(p: ServeProcess, token: string, ids: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const id of ids) {
    const res = await call(p, token, 'GET', `/documents/page/${id}`);
    expect(res.status).toBe(200);
    const status = res.json.data._status as string;
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

describe('SIGKILL during a publish of 50 documents', () => {
  if (dialect === 'postgres') {
    it('killed while the transaction has written part of the set: nothing is published; after a restart the publish takes all 50', async () => {
      await setUp();
      const first = await serve({ DOCUMENTS_SCHEDULE_RUNNER: 'false' });
      const token = await signIn(first);
      const { root, ids } = await fiftyPages(first, token);
      // The publish takes its locks in id order (UUIDv7: creation order); the test holds the last
      // one, so the node's transaction writes 49 documents and then waits for it.
      const last = [...ids].sort().at(-1) as string;
      const holder = new pg.Client({ connectionString: (db as TestDatabase).url });
      const watcher = new pg.Client({ connectionString: (db as TestDatabase).url });
      await holder.connect();
      await watcher.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from documents where id = $1 for update', [last]);
        const publishing = call(first, token, 'POST', `/documents/page/${root}/publish`, { withReferences: true }).catch(() => undefined);
        // Waiting on the lock with writes of its own behind it (a transaction id is assigned at the first write).
        const waiting = async () =>
          (
            await watcher.query(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock' and backend_xid is not null and pid <> $1`,
              [(holder as unknown as { processID: number }).processID],
            )
          ).rows[0].n as number;
        await expect.poll(waiting, { timeout: 15_000, interval: 50 }).toBe(1);
        await first.kill();
        await publishing;
        await holder.query('rollback');
        // The killed node's backend ends once it finds its client gone; its transaction is rolled back.
        await expect
          .poll(
            async () =>
              (
                await watcher.query(
                  `select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid() and pid <> $1`,
                  [(holder as unknown as { processID: number }).processID],
                )
              ).rows[0].n as number,
            { timeout: 15_000, interval: 50 },
          )
          .toBe(0);
      } finally {
        await holder.end();
        await watcher.end();
      }
      const second = await serve({ DOCUMENTS_SCHEDULE_RUNNER: 'false' });
      const again = await signIn(second);
      expect(await statuses(second, again, ids)).toEqual({ draft: 50 });
      const published = await call(second, again, 'POST', `/documents/page/${root}/publish`, { withReferences: true });
      expect(published.status).toBe(200);
      expect(await statuses(second, again, ids)).toEqual({ published: 50 });
    });
  }

  it('killed at points through the publish: each time all 50 or none are published, and the database opens again', async () => {
    await setUp();
    let node = await serve({ DOCUMENTS_SCHEDULE_RUNNER: 'false' });
    let token = await signIn(node);
    // How long a publish of 50 takes here, from the request to the answer.
    const timed = await fiftyPages(node, token);
    const started = performance.now();
    expect((await call(node, token, 'POST', `/documents/page/${timed.root}/publish`, { withReferences: true })).status).toBe(200);
    const took = performance.now() - started;
    const seen = new Set<string>();
    for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
      const { root, ids } = await fiftyPages(node, token);
      const publishing = call(node, token, 'POST', `/documents/page/${root}/publish`, { withReferences: true }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, took * fraction));
      await node.kill();
      await publishing;
      running.splice(running.indexOf(node), 1);
      node = await serve({ DOCUMENTS_SCHEDULE_RUNNER: 'false' });
      token = await signIn(node);
      const counts = await statuses(node, token, ids);
      expect([JSON.stringify({ draft: 50 }), JSON.stringify({ published: 50 })]).toContain(JSON.stringify(counts));
      seen.add(Object.keys(counts)[0]);
    }
    // The earliest kill lands before the transaction commits (nothing was answered yet).
    expect(seen.has('draft')).toBe(true);
    // Six servers started and 300 pages written: about 15 s alone, twice that beside other suites.
  }, 90_000);
});

describe('two processes on one database', () => {
  it('run 40 schedules due in the same second exactly once each', async () => {
    await setUp();
    const nodes = [await serve(), await serve()];
    const token = await signIn(nodes[0]);
    const due = new Date(Date.now() + 4000).toISOString();
    const planned: Array<{ doc: string; schedule: string }> = [];
    for (let i = 0; i < 40; i++) {
      const doc = await call(nodes[i % 2], token, 'POST', '/documents/page', { title: `Due ${i}` });
      const s = await call(nodes[i % 2], token, 'POST', `/documents/page/${doc.json.data._id}/schedule`, { action: 'publish', at: due });
      expect(s.status, JSON.stringify(s.json)).toBe(201);
      planned.push({ doc: doc.json.data._id as string, schedule: s.json.data.id as string });
    }
    const pending = async () => (await call(nodes[1], token, 'GET', '/schedules?status=pending&limit=100')).json.meta.total as number;
    await expect.poll(pending, { timeout: 20_000, interval: 200 }).toBe(0);
    const done = await call(nodes[0], token, 'GET', '/schedules?status=done&limit=100');
    expect(done.json.meta.total).toBe(40);
    for (const { doc } of planned) {
      const revisions = await call(nodes[1], token, 'GET', `/documents/page/${doc}/revisions`);
      // Created, then published once; the audit log below counts the runs themselves.
      expect(revisions.json.data.map((r: { _rev: number }) => r._rev)).toEqual([2, 1]);
    }
    const audit = await call(nodes[0], token, 'GET', '/audit?type=scheduleRun&limit=100');
    const runs = (audit.json.data as Array<{ target: string }>).map((r) => r.target).sort();
    expect(runs).toEqual(planned.map((p) => p.schedule).sort());
  });
});
