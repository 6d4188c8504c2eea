import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { dialect } from '../helpers/database.js';
import { openStream, payloads } from '../helpers/event-stream.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// GET /events fed by real writes through the API (docs/realtime.md): what a document, user or
// media write publishes after its commit reaches the streams, each caller seeing what it may read.
let t: TestApp;
let admin: string;
/** PostgreSQL: a second node on the same database. */
let other: App | undefined;

const WRITES = 'events=document.created,document.updated,document.deleted';

beforeAll(async () => {
  // Long heartbeats: a stream that ends here ended because of an event, not a periodic check.
  t = await startTestApp({ schemas: TEST_SCHEMAS, realtime: { heartbeat: '1h' } });
  admin = await t.login(ADMIN.username, ADMIN.password);
  if (dialect === 'postgres')
    other = await createApp(
      resolveConfig({ database: { url: t.db.url }, schemas: TEST_SCHEMAS, security: { bcryptRounds: 4, adminUser: ADMIN } }, {}),
    );
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

async function apiToken(permissions: string[]): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/tokens',
    token: admin,
    payload: { name: `p${Date.now()}${Math.random()}`, permissions },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.token as string;
}

describe('document writes on the stream', () => {
  it('create, update and delete arrive in order, with event ids, subjects and bodies', async () => {
    const s = await openStream(t, { token: admin, query: `types=post&${WRITES}` });
    try {
      const doc = await postDocument(t, admin, 'post', { title: 'One' });
      const patched = await t.request({ method: 'PATCH', url: `/api/documents/post/${doc._id}`, token: admin, payload: { title: 'Two' } });
      expect(patched.statusCode, patched.body).toBe(200);
      const deleted = await t.request({ method: 'DELETE', url: `/api/documents/post/${doc._id}`, token: admin });
      expect(deleted.statusCode).toBeLessThan(300);
      const got = await s.waitForMessages(3);
      expect(got.map((m) => m.event)).toEqual(['document.created', 'document.updated', 'document.deleted']);
      const bodies = payloads(got);
      expect(bodies.map((b) => b.id)).toEqual(got.map((m) => m.lastEventId));
      expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
      expect(bodies.map((b) => b.subject)).toEqual([
        { kind: 'document', docType: 'post', id: doc._id, rev: 1, status: 'draft' },
        { kind: 'document', docType: 'post', id: doc._id, rev: 2, status: 'draft' },
        expect.objectContaining({ kind: 'document', docType: 'post', id: doc._id }),
      ]);
      expect(bodies[0].document).toMatchObject({ _id: doc._id, title: 'One' });
      expect(bodies[1].document).toMatchObject({ _id: doc._id, title: 'Two', _rev: 2 });
    } finally {
      s.close();
    }
  });

  it('a token without read on a type gets none of its events; drafts stay hidden from published-only readers', async () => {
    const postReader = await apiToken(['post:read']);
    // Creates only: a create that publishes may also announce `document.published`.
    const s = await openStream(t, { token: postReader, query: 'events=document.created' });
    const anonymous = await openStream(t, { query: 'types=author&events=document.created' });
    try {
      await postDocument(t, admin, 'secret', { code: 'x' });
      await postDocument(t, admin, 'author', { name: 'Draft author' });
      const published = await postDocument(t, admin, 'author', { name: 'Public author', _status: 'published' });
      const last = await postDocument(t, admin, 'post', { title: 'Visible' });
      const got = payloads(await s.waitForMessages(2));
      // The published author is public reading; the draft author and the secret are not.
      expect(got.map((b) => b.subject.id)).toEqual([published._id, last._id]);
      const anon = payloads(await anonymous.waitForMessages(1));
      expect(anon[0].subject.id).toBe(published._id);
      expect(anon[0].document).toMatchObject({ name: 'Public author' });
      expect(anonymous.messages.every((m) => JSON.parse(m.data).subject.id === published._id)).toBe(true);
      expect(s.messages.some((m) => m.data.includes('"secret"'))).toBe(false);
    } finally {
      s.close();
      anonymous.close();
    }
  });

  it('draft writes and discards reach readers with permission as document.draft.*; an anonymous stream never sees them', async () => {
    const events = 'events=document.draft.updated,document.draft.deleted,document.updated';
    const s = await openStream(t, { token: admin, query: `types=author&${events}` });
    const anonymous = await openStream(t, { query: `types=author&${events}` });
    try {
      const doc = await postDocument(t, admin, 'author', { name: 'Live name', _status: 'published' });
      const draft = await t.request({
        method: 'PATCH',
        url: `/api/documents/author/${doc._id}?draft=true`,
        token: admin,
        payload: { name: 'Draft name' },
      });
      expect(draft.statusCode, draft.body).toBe(200);
      const discard = await t.request({ method: 'DELETE', url: `/api/documents/author/${doc._id}/draft`, token: admin });
      expect(discard.statusCode).toBe(200);
      // A later public change, so the anonymous stream has something it may see to wait for.
      await t.request({ method: 'PATCH', url: `/api/documents/author/${doc._id}`, token: admin, payload: { name: 'New live name' } });
      const got = await s.waitForMessages(3);
      expect(got.map((m) => m.event)).toEqual(['document.draft.updated', 'document.draft.deleted', 'document.updated']);
      expect(payloads(got)[0].document).toMatchObject({ _id: doc._id, _version: 'draft', name: 'Draft name' });
      const anon = await anonymous.waitForMessages(1);
      expect(anon.map((m) => m.event)).toEqual(['document.updated']);
      expect(anonymous.messages.some((m) => m.data.includes('Draft name'))).toBe(false);
    } finally {
      s.close();
      anonymous.close();
    }
  });

  it('perspective=published carries changes to published versions only; perspective=drafts needs read permission', async () => {
    expect((await t.request({ method: 'GET', url: '/api/events?perspective=drafts' })).statusCode).toBe(401);
    const postReader = await apiToken(['post:read']);
    const refused = await t.request({ method: 'GET', url: '/api/events?perspective=drafts&types=author', token: postReader });
    expect(refused.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/events?perspective=everything', token: admin })).statusCode).toBe(400);
    const s = await openStream(t, { token: admin, query: 'types=company&perspective=published' });
    try {
      const hidden = await postDocument(t, admin, 'company', { name: 'Not yet public' });
      const live = await postDocument(t, admin, 'company', { name: 'Public Co', _status: 'published' });
      await t.request({
        method: 'PATCH',
        url: `/api/documents/company/${live._id}?draft=true`,
        token: admin,
        payload: { name: 'Draft Co' },
      });
      await t.request({ method: 'PATCH', url: `/api/documents/company/${live._id}`, token: admin, payload: { name: 'Public Co 2' } });
      const got = await s.waitForMessages(3);
      expect(got.map((m) => m.event)).toEqual(['document.created', 'document.published', 'document.updated']);
      expect(payloads(got).every((b) => b.subject.id === live._id)).toBe(true);
      expect(s.messages.some((m) => m.data.includes(String(hidden._id)))).toBe(false);
    } finally {
      s.close();
    }
  });

  it('Last-Event-ID resumes with exactly the writes made while away', async () => {
    const first = await openStream(t, { token: admin, query: `types=company&${WRITES}` });
    await postDocument(t, admin, 'company', { name: 'Seen' });
    const [seen] = await first.waitForMessages(1);
    first.close();
    const missed = [
      await postDocument(t, admin, 'company', { name: 'Missed 1' }),
      await postDocument(t, admin, 'company', { name: 'Missed 2' }),
    ];
    const again = await openStream(t, { token: admin, query: `types=company&${WRITES}`, headers: { 'last-event-id': seen.lastEventId } });
    try {
      const got = payloads(await again.waitForMessages(2));
      expect(got.map((b) => b.subject.id)).toEqual(missed.map((d) => d._id));
      const live = await postDocument(t, admin, 'company', { name: 'Live' });
      expect(payloads(await again.waitForMessages(3))[2].subject.id).toBe(live._id);
    } finally {
      again.close();
    }
  });
});

describe('user changes on the stream', () => {
  it('a user deactivated while streaming loses its stream at once (its own user.updated), without waiting for a heartbeat', async () => {
    const username = `streamer_${Date.now()}`;
    const id = await createUser(t, admin, { username, password: 'streamer-password-1', role: 'viewer' });
    const s = await openStream(t, { token: await t.login(username, 'streamer-password-1') });
    expect(s.status).toBe(200);
    const off = await t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    await s.ended;
  });
});

if (dialect === 'postgres') {
  describe('PostgreSQL: two nodes on one database', () => {
    it("a write on A reaches a stream on B, and B's cached read of the document is fresh after it", async () => {
      const b = other as App;
      const doc = await postDocument(t, admin, 'post', { title: 'Before', _status: 'published' });
      const url = `/api/documents/post/${doc._id}`;
      expect((await b.server.inject({ method: 'GET', url })).json().data.title).toBe('Before');
      const onB = await openStream({ ...t, app: b }, { token: admin, query: `types=post&events=document.updated` });
      try {
        const put = await t.request({ method: 'PATCH', url, token: admin, payload: { title: 'After' } });
        expect(put.statusCode, put.body).toBe(200);
        const [m] = payloads(await onB.waitForMessages(1));
        expect(m.subject).toMatchObject({ id: doc._id, rev: put.json().data._rev });
        expect(m.document).toMatchObject({ title: 'After' });
        expect((await b.server.inject({ method: 'GET', url })).json().data.title).toBe('After');
      } finally {
        onB.close();
      }
    });
  });
}
