import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VellumClient, type PresenceUpdate } from '../../packages/client/src/index.js';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, injectRequests, startTestApp, type TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import { listeningUrl, openStream, payloads } from '../helpers/event-stream.js';
import { postDocument } from '../helpers/post-document.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// Presence (docs/realtime.md, "Presence"): heartbeats in memory, shared on the change bus. On
// PostgreSQL a second app on the same database is a second node and hears them through
// LISTEN/NOTIFY; on SQLite two apps on one file share a Redis bus.
let a: TestApp;
let b: TestApp;
let admin: string;
let editor: string;
let editorName: string;
/** Moved forward to expire entries: the registry counts by the app's clock. */
let skewMs = 0;
const now = () => new Date(Date.now() + skewMs);
const DOC = '0193a0f4-8a5e-7c3b-9d7e-5b0c2f1a4e21';

beforeAll(async () => {
  a = await startTestApp({ schemas: TEST_SCHEMAS }, { now });
  admin = await a.login(ADMIN.username, ADMIN.password);
  const res = await a.request({
    method: 'POST',
    url: '/api/users',
    token: admin,
    payload: {
      username: 'ada',
      email: 'ada@example.com',
      password: 'user-password-1',
      role: 'editor',
      firstName: 'Ada',
      lastName: 'Lovelace',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  editorName = res.json().data.name as string;
  editor = await a.login('ada', 'user-password-1');
  const app: App = await createApp(
    resolveConfig({ database: { url: a.db.url }, schemas: TEST_SCHEMAS, security: { bcryptRounds: 4, adminUser: ADMIN } }, {}),
    { now },
  );
  b = { ...a, app, ...injectRequests(app), close: () => app.close() };
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const put = (t: TestApp, token: string | undefined, body: unknown = {}, path = `post/${DOC}`) =>
  t.request({ method: 'PUT', url: `/api/presence/${path}`, token, payload: body as object });
const get = (t: TestApp, token: string | undefined, path = `post/${DOC}`) =>
  t.request({ method: 'GET', url: `/api/presence/${path}`, token });
const leave = (t: TestApp, token: string | undefined, path = `post/${DOC}`) =>
  t.request({ method: 'DELETE', url: `/api/presence/${path}`, token });

/** Waits until the node's registry shows `n` people at the document (another node hears through the bus). */
async function present(t: TestApp, n: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 200; i++) {
    const res = await get(t, admin);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data as Record<string, unknown>[];
    if (list.length === n) return list;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never ${n} present`);
}

describe('permissions and validation', () => {
  it('anonymous callers are 401 on every route', async () => {
    for (const res of [await put(a, undefined), await get(a, undefined), await leave(a, undefined)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
  });

  it('a caller without read permission on the type is 403; an unknown type 404', async () => {
    const outsider = await a.userToken('api', ['company:read']);
    for (const res of [await put(a, outsider), await get(a, outsider), await leave(a, outsider)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect((await put(a, outsider, {}, `company/${DOC}`)).statusCode).toBe(204);
    await leave(a, outsider, `company/${DOC}`);
    const missing = await put(a, editor, {}, `nope/${DOC}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
  });

  it('an API token may ask who is there, but is nobody at a document (403)', async () => {
    const created = await a.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'ci', permissions: ['post:read'] },
    });
    const token = created.json().data.token as string;
    expect((await put(a, token)).statusCode).toBe(403);
    expect((await get(a, token)).statusCode).toBe(200);
  });

  it('a bad body is 422 in the error body', async () => {
    for (const body of [{ editing: 'yes' }, { field: '' }, { field: 'x'.repeat(201) }, { other: 1 }]) {
      const res = await put(a, editor, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('heartbeats, leaving and expiry', () => {
  it('GET after a PUT shows the person, the field and editing; a second session is a second entry', async () => {
    const auditBefore = (await a.request({ method: 'GET', url: '/api/audit', token: admin })).json();
    const version = a.app.services.changes.version;
    const res = await put(a, editor, { field: 'title', editing: true });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const [entry] = await present(a, 1);
    expect(entry).toEqual({
      session: expect.any(String),
      userId: expect.any(String),
      name: editorName,
      field: 'title',
      editing: true,
      since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(JSON.stringify(entry)).not.toContain(editor);
    // No change: no cache version, no audit record.
    expect(a.app.services.changes.version).toBe(version);
    expect((await a.request({ method: 'GET', url: '/api/audit', token: admin })).json()).toEqual(auditBefore);

    const second = await a.login('ada', 'user-password-1');
    await put(a, second, { field: null });
    const both = await present(a, 2);
    expect(new Set(both.map((e) => e.session)).size).toBe(2);
    expect(String(both[0].since) <= String(both[1].since)).toBe(true);
    await leave(a, second);
    expect(await present(a, 1)).toEqual([entry]);
  });

  it('a heartbeat keeps the arrival time and updates the field', async () => {
    const [before] = await present(a, 1);
    await put(a, editor, { field: 'body', editing: false });
    await expect.poll(async () => (await get(a, admin)).json().data[0].field).toBe('body');
    const [after] = await present(a, 1);
    expect(after).toMatchObject({ since: before.since, field: 'body', editing: false });
  });

  it('DELETE removes the entry', async () => {
    expect((await leave(a, editor)).statusCode).toBe(204);
    expect(await present(a, 0)).toEqual([]);
    // Leaving twice is no error.
    expect((await leave(a, editor)).statusCode).toBe(204);
  });

  it('an entry without a heartbeat for 30 s is gone', async () => {
    await put(a, editor, {});
    await present(a, 1);
    skewMs += 29_000;
    await present(a, 1);
    skewMs += 2_000;
    expect(await present(a, 0)).toEqual([]);
  });
});

describe('presence.updated on /events', () => {
  it('a stream that asked hears who is there at once and on every change; one that did not, nothing', async () => {
    const asked = await openStream(a, { token: admin, query: `presence=post:${DOC}&events=presence.updated` });
    const plain = await openStream(a, { token: admin, query: 'types=post' });
    expect(asked.status).toBe(200);
    const [first] = await asked.waitForMessages(1);
    expect(first.event).toBe('presence.updated');
    expect(first.lastEventId).toBe('');
    expect(JSON.parse(first.data)).toEqual({ type: 'post', id: DOC, present: [] });
    await put(a, editor, { field: 'title' });
    const [, second] = payloads(await asked.waitForMessages(2));
    expect(second).toMatchObject({ type: 'post', id: DOC, present: [{ name: editorName, field: 'title', editing: false }] });
    // The unchanged heartbeat is quiet; leaving is told.
    await put(a, editor, { field: 'title' });
    await leave(a, editor);
    const [, , third] = payloads(await asked.waitForMessages(3));
    expect(third).toEqual({ type: 'post', id: DOC, present: [] });
    // A change event reaches the plain stream, with no presence before it; `events=presence.updated` kept changes away.
    await postDocument(a, admin, 'post', { title: 'After presence' });
    const [change] = await plain.waitForMessages(1);
    expect(change.event).toBe('document.created');
    expect(plain.messages.some((m) => m.event === 'presence.updated')).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(asked.messages.map((m) => m.event)).toEqual(['presence.updated', 'presence.updated', 'presence.updated']);
    asked.close();
    plain.close();
  });

  it('never reaches anonymous streams: asking is 401, and a plain anonymous stream hears none', async () => {
    const refused = await openStream(a, { query: `presence=post:${DOC}` });
    expect(refused.status).toBe(401);
    const anonymous = await openStream(a, {});
    await put(a, editor, { field: 'title' });
    await leave(a, editor);
    await postDocument(a, admin, 'post', { title: 'Seen anonymously', _status: 'published' });
    const messages = await anonymous.waitForMessages(1);
    expect(messages.map((m) => m.event)).toEqual(['document.created']);
    anonymous.close();
  });

  it('asking needs read permission on the type (403), a known type and type:id (400)', async () => {
    const outsider = await a.userToken('api', ['company:read']);
    expect((await openStream(a, { token: outsider, query: `presence=post:${DOC}` })).status).toBe(403);
    expect((await openStream(a, { token: admin, query: `presence=nope:${DOC}` })).status).toBe(400);
    expect((await openStream(a, { token: admin, query: 'presence=post' })).status).toBe(400);
  });
});

describe('the client', () => {
  it('announces, lists and leaves, and hands presence.updated to onPresence', async () => {
    const client = new VellumClient({ baseUrl: await listeningUrl(a), token: editor });
    const updates: PresenceUpdate[] = [];
    const subscription = client.events.subscribe({ events: ['presence.updated'], presence: [`post:${DOC}`] }, () => undefined, {
      onPresence: (u) => updates.push(u),
    });
    await expect.poll(() => updates.length).toBe(1);
    await client.presence.announce('post', DOC, { field: 'title', editing: true });
    expect(await client.presence.list('post', DOC)).toMatchObject([{ name: editorName, field: 'title', editing: true }]);
    await expect.poll(() => updates.at(-1)?.present.length).toBe(1);
    await client.presence.leave('post', DOC);
    expect(await client.presence.list('post', DOC)).toEqual([]);
    await expect.poll(() => updates.at(-1)?.present.length).toBe(0);
    // Presence messages carry no id: the subscription's resume point is unchanged.
    expect(subscription.lastEventId).toBeUndefined();
    subscription.close();
  });
});

// Two nodes: on PostgreSQL the second app above shares LISTEN/NOTIFY with the first; SQLite is
// one node unless a shared bus is configured, so there two apps on the file share Redis.
describe('across nodes', () => {
  let redis: RedisServer | undefined;
  let nodes: [TestApp, TestApp];
  const extra: App[] = [];
  beforeAll(async () => {
    if (dialect === 'postgres') {
      nodes = [a, b];
      return;
    }
    redis = await startRedisServer();
    const channel = `vellum_t_${randomBytes(4).toString('hex')}`;
    const node = async () => {
      const app = await createApp(
        resolveConfig(
          {
            database: { url: a.db.url },
            schemas: TEST_SCHEMAS,
            security: { bcryptRounds: 4, adminUser: ADMIN },
            redis: { url: redis!.url },
            realtime: { fanout: 'redis', channel },
          },
          {},
        ),
        { now },
      );
      extra.push(app);
      return { ...a, app, ...injectRequests(app), close: () => app.close() };
    };
    nodes = [await node(), await node()];
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await redis?.close();
  });

  it('a heartbeat on one node shows on the other, and its stream hears it; leaving too', async () => {
    const [a, b] = nodes;
    const stream = await openStream(b, { token: admin, query: `presence=post:${DOC}&events=presence.updated` });
    await stream.waitForMessages(1);
    const versionOnB = b.app.services.changes.version;
    await put(a, editor, { field: 'title', editing: true });
    const [entry] = await present(b, 1);
    expect(entry).toMatchObject({ name: editorName, field: 'title', editing: true });
    const [, heard] = payloads(await stream.waitForMessages(2));
    expect(heard).toMatchObject({ present: [{ name: editorName, field: 'title' }] });
    // The other node's caches are untouched: presence is no change.
    expect(b.app.services.changes.version).toBe(versionOnB);
    await leave(a, editor);
    await present(b, 0);
    const [, , gone] = payloads(await stream.waitForMessages(3));
    expect(gone.present).toEqual([]);
    stream.close();
  });
});
