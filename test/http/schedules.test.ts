import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { runDueSchedules } from '../../packages/server/src/domain/schedules/run-schedules.js';
import { startScheduleRunner } from '../../packages/server/src/jobs/schedule-runner.js';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { dialect, withTestDatabase } from '../helpers/database.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Scheduled publishing (docs/schedules.md): creating, listing and cancelling schedules, and the
 * runner publishing or refusing them as their creator. The clock is the app's injected `now`,
 * moved forward instead of waited for; a pass of the runner is awaited directly.
 */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
/** Moves every app of this file past `ms` from now. */
const advance = (ms: number) => {
  offsetMs += ms;
};
const inFuture = (ms: number) => new Date(now().getTime() + ms).toISOString();

let t: TestApp;
let admin: string;
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS }, { now }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const schedule = (type: string, id: string, payload: unknown, token = admin) =>
  t.request({ method: 'POST', url: `/api/documents/${type}/${id}/schedule`, token, payload: payload as Record<string, unknown> });
const list = (query: string, token = admin) => t.request({ method: 'GET', url: `/api/schedules${query}`, token });
const scheduleOf = async (id: string, documentId: string) => {
  const res = await list(`?documentId=${documentId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<Record<string, unknown>>).find((s) => s.id === id);
};
const statusOf = async (type: string, id: string) =>
  (await t.request({ method: 'GET', url: `/api/documents/${type}/${id}`, token: admin })).json().data._status as string;

async function scheduled(type: string, id: string, action: string, inMs = 60_000, token = admin): Promise<string> {
  const res = await schedule(type, id, { action, at: inFuture(inMs) }, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

describe('creating, listing and cancelling', () => {
  it('POST …/schedule answers 201 with the schedule; GET /schedules lists it by at; DELETE cancels a pending one', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Planned' });
    const id = doc._id as string;
    const at = inFuture(3_600_000);
    const created = await schedule('post', id, { action: 'publish', at });
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json().data;
    expect(s).toEqual({
      id: expect.any(String),
      type: 'post',
      documentId: id,
      action: 'publish',
      at,
      status: 'pending',
      createdBy: expect.any(String),
      createdAt: expect.stringMatching(/Z$/),
    });
    const earlier = await scheduled('post', id, 'unpublish', 1_800_000);

    const listed = await list(`?documentId=${id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((x: { id: string }) => x.id)).toEqual([earlier, s.id]);
    expect(listed.json().meta).toEqual({ total: 2, limit: 20, offset: 0 });
    const later = await list(`?documentId=${id}&from=${encodeURIComponent(inFuture(2_000_000))}`);
    expect(later.json().data.map((x: { id: string }) => x.id)).toEqual([s.id]);
    const before = await list(`?documentId=${id}&to=${encodeURIComponent(inFuture(2_000_000))}&type=post`);
    expect(before.json().data.map((x: { id: string }) => x.id)).toEqual([earlier]);

    const cancelled = await t.request({ method: 'DELETE', url: `/api/schedules/${s.id}`, token: admin });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ success: true });
    expect(await scheduleOf(s.id as string, id)).toMatchObject({ status: 'cancelled' });
    const pending = await list(`?documentId=${id}&status=pending`);
    expect(pending.json().data.map((x: { id: string }) => x.id)).toEqual([earlier]);

    const again = await t.request({ method: 'DELETE', url: `/api/schedules/${s.id}`, token: admin });
    expect(again.statusCode).toBe(409);
    const unknown = await t.request({ method: 'DELETE', url: '/api/schedules/no-such-schedule', token: admin });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a past or malformed at and an unknown action (422), a writer without publish (403), an unknown document (404)', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Validated' });
    const id = doc._id as string;
    for (const payload of [
      { action: 'publish', at: new Date(now().getTime() - 1_000).toISOString() },
      { action: 'publish', at: 'tomorrow' },
      { action: 'publish', at: '2030-02-30T10:00:00Z' },
      { action: 'publish', at: '2030-01-01T10:00:00' },
      { action: 'archive', at: inFuture(60_000) },
      { action: 'publish' },
    ]) {
      const res = await schedule('post', id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    await createUser(t, admin, { username: 'schedwriter', password: 'correct horse battery', role: 'writer' });
    const writer = await t.login('schedwriter', 'correct horse battery');
    const denied = await schedule('post', id, { action: 'publish', at: inFuture(60_000) }, writer);
    expect(denied.statusCode).toBe(403);
    expect((await schedule('post', 'no-such-doc', { action: 'publish', at: inFuture(60_000) })).statusCode).toBe(404);
    // A writer lists only what it may read, and may not cancel.
    const mine = await scheduled('post', id, 'publish');
    expect((await list(`?documentId=${id}`, writer)).json().data.map((x: { id: string }) => x.id)).toEqual([mine]);
    expect((await t.request({ method: 'DELETE', url: `/api/schedules/${mine}`, token: writer })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/schedules' })).statusCode).toBe(401);
    const viewer = await t.userToken('viewer', []);
    expect((await list('?type=post', await t.userToken('api', []))).statusCode).toBe(403);
    expect((await list(`?documentId=${id}`, viewer)).statusCode).toBe(200);
  });
});

describe('running', () => {
  it('the runner wakes at the next schedule’s at instead of waiting for its poll', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'On the dot' });
    const id = doc._id as string;
    const s = await scheduled('post', id, 'publish', 800);
    // A poll far longer than the test: only the wake-up at `at` can run it.
    const runner = startScheduleRunner(t.app.services, { pollMs: 600_000 });
    try {
      await expect.poll(async () => (await scheduleOf(s, id))?.status, { timeout: 5_000, interval: 50 }).toBe('done');
      const done = await scheduleOf(s, id);
      expect(Date.parse(done?.doneAt as string) - Date.parse(done?.at as string)).toBeLessThan(2_000);
      expect(await statusOf('post', id)).toBe('published');
    } finally {
      await runner.stop();
    }
  });

  it('a due schedule publishes (or unpublishes) as its creator: status done with doneAt', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Goes live' });
    const id = doc._id as string;
    const pub = await scheduled('post', id, 'publish', 60_000);
    const unpub = await scheduled('post', id, 'unpublish', 120_000);
    expect(await runDueSchedules(t.app.services)).toBe(0);
    advance(61_000);
    await runDueSchedules(t.app.services);
    expect(await statusOf('post', id)).toBe('published');
    const done = await scheduleOf(pub, id);
    expect(done).toMatchObject({ status: 'done', doneAt: expect.stringMatching(/Z$/) });
    expect(done?.error).toBeUndefined();
    expect(await scheduleOf(unpub, id)).toMatchObject({ status: 'pending' });
    advance(60_000);
    await runDueSchedules(t.app.services);
    expect(await statusOf('post', id)).toBe('draft');
    expect(await scheduleOf(unpub, id)).toMatchObject({ status: 'done' });
    // It ran: cancelling it now is a conflict.
    expect((await t.request({ method: 'DELETE', url: `/api/schedules/${unpub}`, token: admin })).statusCode).toBe(409);
  });

  it('a creator who lost the publish permission: failed with the reason, nothing published', async () => {
    const userId = await createUser(t, admin, { username: 'schedauthor', password: 'correct horse battery', role: 'author' });
    const author = await t.login('schedauthor', 'correct horse battery');
    const doc = await postDocument(t, author, 'post', { title: 'By an author' });
    const id = doc._id as string;
    const s = await scheduled('post', id, 'publish', 60_000, author);
    const demoted = await t.request({ method: 'PUT', url: `/api/users/${userId}`, token: admin, payload: { role: 'writer' } });
    expect(demoted.statusCode, demoted.body).toBe(200);
    advance(61_000);
    await runDueSchedules(t.app.services);
    expect(await scheduleOf(s, id)).toMatchObject({
      status: 'failed',
      error: 'Missing permission post:publish',
      doneAt: expect.any(String),
    });
    expect(await statusOf('post', id)).toBe('draft');
  });

  it('made with an API token: runs with the token’s permissions; once the token is revoked it fails saying so', async () => {
    const made = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'scheduler', permissions: ['post:read', 'post:write', 'post:publish'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json().data.token as string;
    const tokenId = made.json().data.apiToken.id as string;
    const first = await postDocument(t, admin, 'post', { title: 'By a token' });
    const second = await postDocument(t, admin, 'post', { title: 'By a revoked token' });
    const ran = await scheduled('post', first._id as string, 'publish', 60_000, token);
    const refused = await scheduled('post', second._id as string, 'publish', 120_000, token);
    expect((await scheduleOf(ran, first._id as string))?.createdBy).toMatch(/^token:/);
    advance(61_000);
    await runDueSchedules(t.app.services);
    expect(await scheduleOf(ran, first._id as string)).toMatchObject({ status: 'done' });
    expect(await statusOf('post', first._id as string)).toBe('published');
    const revoked = await t.request({ method: 'DELETE', url: `/api/tokens/${tokenId}`, token: admin });
    expect(revoked.statusCode, revoked.body).toBe(200);
    advance(60_000);
    await runDueSchedules(t.app.services);
    expect(await scheduleOf(refused, second._id as string)).toMatchObject({
      status: 'failed',
      error: 'The API token that created the schedule was revoked',
    });
    expect(await statusOf('post', second._id as string)).toBe('draft');
  });

  it('a schedule blocked by the reference rule: failed naming the reason, nothing published', async () => {
    const authorDoc = await postDocument(t, admin, 'author', { name: 'Unpublished author' });
    const doc = await postDocument(t, admin, 'post', { title: 'Refers to a draft', author: authorDoc._id });
    const id = doc._id as string;
    const s = await scheduled('post', id, 'publish');
    advance(61_000);
    await runDueSchedules(t.app.services);
    const failed = await scheduleOf(s, id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.error).toContain(`author: references author ${authorDoc._id}, which is not published`);
    expect(await statusOf('post', id)).toBe('draft');
  });

  it('a schedule whose document was deleted goes with it', async () => {
    const doc = await postDocument(t, admin, 'post', { title: 'Deleted' });
    const id = doc._id as string;
    await scheduled('post', id, 'publish');
    expect((await t.request({ method: 'DELETE', url: `/api/documents/post/${id}`, token: admin })).statusCode).toBe(200);
    expect((await list(`?documentId=${id}`)).json().data).toEqual([]);
  });
});

const config = (url: string, runner: boolean) =>
  resolveConfig(
    { database: { url }, schemas: TEST_SCHEMAS, security: { bcryptRounds: 4, adminUser: ADMIN }, documents: { scheduleRunner: runner } },
    {},
  );

async function signIn(app: App): Promise<string> {
  const res = await app.server.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

describe('restarts and several nodes', () => {
  it('a schedule missed while the server was down runs when it starts again', async () => {
    await withTestDatabase(async (db) => {
      const first = await createApp(config(db.url, false), { now });
      let docId: string;
      let scheduleId: string;
      try {
        const token = await signIn(first);
        const doc = await first.server.inject({
          method: 'POST',
          url: '/api/documents/post',
          headers: { authorization: `Bearer ${token}` },
          payload: { title: 'While down' },
        });
        docId = doc.json().data._id as string;
        const s = await first.server.inject({
          method: 'POST',
          url: `/api/documents/post/${docId}/schedule`,
          headers: { authorization: `Bearer ${token}` },
          payload: { action: 'publish', at: inFuture(60_000) },
        });
        expect(s.statusCode, s.body).toBe(201);
        scheduleId = s.json().data.id as string;
      } finally {
        await first.close();
      }
      // Down past its time; the next start runs it without being asked.
      advance(120_000);
      const second = await createApp(config(db.url, true), { now });
      try {
        const token = await signIn(second);
        const read = () =>
          second.server.inject({ method: 'GET', url: `/api/schedules?documentId=${docId}`, headers: { authorization: `Bearer ${token}` } });
        await expect.poll(async () => (await read()).json().data[0]?.status, { timeout: 10_000, interval: 50 }).toBe('done');
        expect((await read()).json().data[0].id).toBe(scheduleId);
        const doc = await second.server.inject({ method: 'GET', url: `/api/documents/post/${docId}` });
        expect(doc.json().data._status).toBe('published');
      } finally {
        await second.close();
      }
    });
  });
});

if (dialect === 'postgres') {
  describe('PostgreSQL: several nodes', () => {
    it('two nodes on one database run each due schedule exactly once', async () => {
      const nodes = [await createApp(config(t.db.url, true), { now }), await createApp(config(t.db.url, true), { now })];
      try {
        const ids: Array<{ doc: string; schedule: string }> = [];
        for (let i = 0; i < 6; i++) {
          const doc = await postDocument(t, admin, 'post', { title: `Twice ${i}` });
          ids.push({ doc: doc._id as string, schedule: await scheduled('post', doc._id as string, 'publish', 30_000) });
        }
        advance(31_000);
        // Both nodes' own runners poll, and each is asked at once as well.
        await Promise.all([...nodes, ...nodes].map((n) => runDueSchedules(n.services, 2)));
        for (const { doc, schedule: s } of ids) {
          await expect.poll(async () => (await scheduleOf(s, doc))?.status, { timeout: 10_000, interval: 50 }).toBe('done');
        }
        const runs = await t.app.services.database.db
          .selectFrom('audit_log')
          .select('target')
          .where('type', '=', 'scheduleRun')
          .where(
            'target',
            'in',
            ids.map((x) => x.schedule),
          )
          .execute();
        expect(runs.map((r) => r.target).sort()).toEqual(ids.map((x) => x.schedule).sort());
        for (const { doc } of ids) {
          const read = await t.request({ method: 'GET', url: `/api/documents/post/${doc}/revisions`, token: admin });
          // One publish: the created version and the published one, nothing after.
          expect(read.json().data.map((r: { _rev: number }) => r._rev)).toEqual([2, 1]);
        }
      } finally {
        for (const n of nodes) await n.close();
      }
    });

    it('a node whose claim ran out before its publish committed writes nothing; the node that took the claim over publishes once', async () => {
      const doc = await postDocument(t, admin, 'post', { title: 'Slow node' });
      const id = doc._id as string;
      const s = await scheduled('post', id, 'publish', 30_000);
      advance(31_000);
      const db = t.app.services.database.db;
      const claimOf = async () =>
        (await db.selectFrom('schedules').select(['status', 'claimed_until']).where('id', '=', s).executeTakeFirstOrThrow()).claimed_until;
      // Another session holds the document's row: the run claims the schedule, then waits for it.
      const blocker = new pg.Client({ connectionString: t.db.url });
      await blocker.connect();
      let run: Promise<number> | undefined;
      try {
        await blocker.query('begin');
        await blocker.query('select id from documents where id = $1 for update', [id]);
        run = runDueSchedules(t.app.services);
        await expect.poll(claimOf, { timeout: 10_000, interval: 20 }).not.toBeNull();
        // Meanwhile its claim ran out and another node took the schedule over.
        const takenOver = new Date(now().getTime() + 60_000).toISOString();
        await db.updateTable('schedules').set({ claimed_until: takenOver }).where('id', '=', s).execute();
        await blocker.query('commit');
        expect(await run).toBe(1);
        expect(await statusOf('post', id)).toBe('draft');
        expect(await scheduleOf(s, id)).toMatchObject({ status: 'pending' });
        expect(await claimOf()).toBe(takenOver);
        const audits = () =>
          db.selectFrom('audit_log').select('target').where('type', '=', 'scheduleRun').where('target', '=', s).execute();
        expect(await audits()).toEqual([]);

        // The node that took it over runs it once its own claim is seen through (here: run out too).
        advance(61_000);
        await runDueSchedules(t.app.services);
        expect(await statusOf('post', id)).toBe('published');
        expect(await scheduleOf(s, id)).toMatchObject({ status: 'done' });
        expect(await audits()).toHaveLength(1);
        const revisions = await t.request({ method: 'GET', url: `/api/documents/post/${id}/revisions`, token: admin });
        expect(revisions.json().data.map((r: { _rev: number }) => r._rev)).toEqual([2, 1]);
      } finally {
        await blocker.query('rollback').catch(() => undefined);
        await run?.catch(() => undefined);
        await blocker.end();
      }
    });
  });
}
