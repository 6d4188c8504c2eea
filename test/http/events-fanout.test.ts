import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { documentEvent, publish } from '../helpers/change-events.js';
import { dialect } from '../helpers/database.js';
import { openStream, payloads } from '../helpers/event-stream.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// Events across nodes (docs/realtime.md, "Several nodes"): on PostgreSQL two apps on one database
// share changes over LISTEN/NOTIFY — streams, the data of oversized events, cache invalidation and
// webhook list reloads. SQLite is one node: the same bus calls stay in the process.
let a: TestApp;
let admin: string;
/** The second node: the same database and configuration, its own process state. */
let b: TestApp;

beforeAll(async () => {
  a = await startTestApp({ schemas: TEST_SCHEMAS });
  admin = await a.login(ADMIN.username, ADMIN.password);
  const app: App = await createApp(
    resolveConfig({ database: { url: a.db.url }, schemas: TEST_SCHEMAS, security: { bcryptRounds: 4, adminUser: ADMIN } }, {}),
  );
  b = {
    ...a,
    app,
    request: (o) => {
      const { token, ...rest } = o;
      return app.server.inject({
        ...rest,
        headers: { ...(rest.headers as object), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
    close: () => app.close(),
  };
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Resolves when the node's bus says the webhooks changed (not merely when a cache TTL ran out). */
function webhooksChanged(app: App): Promise<void> {
  return new Promise((resolve) => {
    const stop = app.services.events.onWebhooksChanged(() => {
      stop();
      resolve();
    });
  });
}

describe('webhook changes reach every node', () => {
  it("creating a webhook on one node reloads the other node's list of active hooks", async () => {
    expect(await b.app.services.activeWebhooks.matching(b.app.services.database, 'document.created', 'post')).toEqual([]);
    const heardOnB = webhooksChanged(b.app);
    const res = await a.request({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: { name: 'n', url: 'https://hooks.example.com/x', events: ['document.*'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.webhook.id as string;
    expect(await a.app.services.activeWebhooks.matching(a.app.services.database, 'document.created', 'post')).toEqual([id]);
    if (dialect === 'postgres') {
      await heardOnB;
      expect(await b.app.services.activeWebhooks.matching(b.app.services.database, 'document.created', 'post')).toEqual([id]);
    }
    const heardAgain = webhooksChanged(b.app);
    const off = await a.request({ method: 'DELETE', url: `/api/webhooks/${id}`, token: admin });
    expect(off.statusCode).toBe(200);
    expect(await a.app.services.activeWebhooks.matching(a.app.services.database, 'document.created', 'post')).toEqual([]);
    if (dialect === 'postgres') {
      await heardAgain;
      expect(await b.app.services.activeWebhooks.matching(b.app.services.database, 'document.created', 'post')).toEqual([]);
    }
  });
});

if (dialect === 'postgres') {
  describe('PostgreSQL: two nodes on one database', () => {
    it('an event published on A reaches streams on A and B, with the same id and in the same order', async () => {
      const onA = await openStream(a, { token: admin });
      const onB = await openStream(b, { token: admin });
      try {
        const sent = await publish(a, documentEvent('document.created', 'post'), documentEvent('document.updated', 'post'));
        await publish(b, documentEvent('document.deleted', 'post'));
        const gotA = await onA.waitForMessages(3);
        const gotB = await onB.waitForMessages(3);
        expect(gotA.map((m) => m.lastEventId)).toEqual(gotB.map((m) => m.lastEventId));
        expect(gotA.slice(0, 2).map((m) => m.lastEventId)).toEqual(sent.map((e) => e.id));
      } finally {
        onA.close();
        onB.close();
      }
    });

    it('an event too large for NOTIFY travels without its data, and B reads the document instead', async () => {
      const doc = await postDocument(a, admin, 'post', { title: 'Large', body: 'x'.repeat(9000), _status: 'published' });
      // Not the create's own events, which may still be on their way: only the ones published here.
      const onB = await openStream(b, { token: admin, query: 'events=document.updated,document.deleted' });
      try {
        const [event] = await publish(
          a,
          documentEvent('document.updated', 'post', { id: doc._id, rev: doc._rev, status: 'published', data: { ...doc } }),
        );
        const [m] = await onB.waitForMessages(1);
        expect(m.lastEventId).toBe(event.id);
        expect(payloads([m])[0].document).toEqual(doc);
        // A deleted resource cannot be read: the subject is all that arrives.
        const gone = documentEvent('document.deleted', 'post', { rev: 7, status: 'published', data: { body: 'y'.repeat(9000) } });
        await publish(a, gone);
        const [d] = payloads((await onB.waitForMessages(2)).slice(1));
        expect(d.document).toEqual({ _id: gone.subject.id, _type: 'post', _rev: 7, _status: 'published' });
      } finally {
        onB.close();
      }
    });

    it('a node whose LISTEN connection is killed connects again and receives events after it', async () => {
      const onB = await openStream(b, { token: admin });
      const killer = new pg.Client({ connectionString: a.db.url });
      await killer.connect();
      try {
        const killed = await killer.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
        );
        expect(killed.rowCount).toBe(2);
        // Events sent while a listener is away are lost to it; keep sending until one arrives.
        const sent = new Set<string>();
        await expect
          .poll(() => {
            const event = documentEvent('document.created', 'post');
            sent.add(event.id);
            a.app.services.events.publish([event]);
            return onB.messages.some((m) => sent.has(m.lastEventId));
          })
          .toBe(true);
        const again = await killer.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
        );
        expect(again.rows[0].n).toBeGreaterThanOrEqual(1);
      } finally {
        await killer.end();
        onB.close();
      }
    });

    it("an event from A invalidates B's response cache for the document", async () => {
      const doc = await postDocument(a, admin, 'post', { title: 'Before', _status: 'published' });
      const url = `/api/documents/post/${doc._id}`;
      expect((await b.request({ method: 'GET', url })).json().data.title).toBe('Before');
      // Written straight to the database's row through A's API, then announced on A's bus.
      const versionBefore = b.app.services.changes.typeVersion('post');
      const onB = await openStream(b, { token: admin });
      try {
        const put = await a.request({ method: 'PATCH', url, token: admin, payload: { title: 'After' } });
        expect(put.statusCode, put.body).toBe(200);
        const [event] = await publish(
          a,
          documentEvent('document.updated', 'post', { id: doc._id, rev: put.json().data._rev, status: 'published' }),
        );
        // The write itself announces its change too; this waits for the one published here.
        await expect.poll(() => onB.messages.some((m) => m.lastEventId === event.id)).toBe(true);
        // B bumped its version before delivering, so its cached render is already stale.
        expect(b.app.services.changes.typeVersion('post')).toBeGreaterThan(versionBefore);
        expect((await b.request({ method: 'GET', url })).json().data.title).toBe('After');
      } finally {
        onB.close();
      }
    });

    it("a document's create and fast-path update send their events inside their own statement: one message each, heard by both nodes; a refused write sends none", async () => {
      const listener = new pg.Client({ connectionString: a.db.url });
      await listener.connect();
      const messages: { events?: { id: string; type: string; subject: { id: string } }[] }[] = [];
      listener.on('notification', (n) => n.payload && messages.push(JSON.parse(n.payload)));
      await listener.query('LISTEN vellum_events');
      const publish = vi.spyOn(a.app.services.events, 'publish');
      const onB = await openStream(b, { token: admin, query: 'types=post' });
      try {
        // Refused: the author does not exist; the guarded statement writes nothing, the locking path answers 422.
        const refused = await a.request({
          method: 'POST',
          url: '/api/documents/post',
          token: admin,
          payload: { title: 'Refused', author: '01900000-0000-7000-8000-000000000000' },
        });
        expect(refused.statusCode, refused.body).toBe(422);
        const doc = await postDocument(a, admin, 'post', { title: 'Noticed', _status: 'published' });
        const patched = await a.request({
          method: 'PATCH',
          url: `/api/documents/post/${doc._id}`,
          token: admin,
          payload: { title: 'Again' },
        });
        expect(patched.statusCode, patched.body).toBe(200);
        // A published create makes two events (created, published), the update one.
        const got = await onB.waitForMessages(3);
        const ofDoc = (m: (typeof messages)[number]) => (m.events ?? []).filter((e) => e.subject.id === doc._id);
        await expect.poll(() => messages.flatMap(ofDoc).length).toBe(3);
        // Each write's events in one message of their own (not gathered with others after commit), and never twice.
        const carrying = messages.filter((m) => ofDoc(m).length > 0);
        expect(carrying.map((m) => m.events!.map((e) => e.type))).toEqual([
          ['document.created', 'document.published'],
          ['document.updated'],
        ]);
        expect(got.map((m) => m.lastEventId)).toEqual(carrying.flatMap((m) => m.events!.map((e) => e.id)));
        // The writer's bus was told the statement sent them, so it sent nothing itself.
        const announced = publish.mock.calls.filter(([events]) => events.some((e) => e.subject.id === doc._id));
        expect(announced.map(([, noticed]) => noticed)).toEqual([true, true]);
        // Notifications arrive in commit order: a message of the refused create would be here by now.
        expect(messages.flatMap((m) => m.events ?? []).some((e) => e.type === 'document.created' && e.subject.id !== doc._id)).toBe(false);
      } finally {
        publish.mockRestore();
        onB.close();
        await listener.end();
      }
    });

    it('events published while a NOTIFY is under way go out together: 300 writes, a handful of messages, every event once and in order', async () => {
      const listener = new pg.Client({ connectionString: a.db.url });
      await listener.connect();
      const messages: string[] = [];
      listener.on('notification', (n) => n.payload && messages.push(n.payload));
      await listener.query('LISTEN vellum_events');
      try {
        const events = Array.from({ length: 300 }, () => documentEvent('document.created', 'company'));
        const last = events[events.length - 1].id;
        const heard: string[] = [];
        await new Promise<void>((resolve) => {
          const stop = a.app.services.events.subscribe((e) => {
            heard.push(e.id);
            if (e.id === last) {
              stop();
              resolve();
            }
          });
          // As 300 writes committing at once would: one publish each.
          for (const event of events) a.app.services.events.publish([event]);
        });
        expect(heard.slice(heard.indexOf(events[0].id))).toEqual(events.map((e) => e.id));
        await expect
          .poll(() => messages.flatMap((m) => JSON.parse(m).events ?? []).filter((e: { id: string }) => e.id === last).length)
          .toBe(1);
        const carried = messages.flatMap((m) => (JSON.parse(m).events ?? []).map((e: { id: string }) => e.id));
        expect(carried.filter((id) => events.some((e) => e.id === id))).toEqual(events.map((e) => e.id));
        expect(messages.length).toBeLessThan(30);
      } finally {
        await listener.end();
      }
    });
  });
}

describe('Redis pub/sub (realtime.fanout: redis)', () => {
  it('two nodes share events and webhook changes through a Redis channel', async () => {
    const config = {
      schemas: TEST_SCHEMAS,
      redis: { url: 'redis://127.0.0.1:6379' },
      realtime: { fanout: 'redis', channel: `vellum_t_${Math.random().toString(36).slice(2, 10)}` },
    };
    const r1 = await startTestApp(config);
    let r2: App | undefined;
    try {
      r2 = await createApp(resolveConfig({ ...config, database: { url: r1.db.url }, security: { bcryptRounds: 4, adminUser: ADMIN } }, {}));
      const node2: TestApp = { ...r1, app: r2 };
      const token = await r1.login(ADMIN.username, ADMIN.password);
      const on2 = await openStream(node2, { token });
      try {
        const sent = await publish(r1, documentEvent('document.created', 'post'), documentEvent('document.updated', 'post'));
        const got = await on2.waitForMessages(2);
        expect(got.map((m) => m.lastEventId)).toEqual(sent.map((e) => e.id));
      } finally {
        on2.close();
      }
      expect(await r2.services.activeWebhooks.matching(r2.services.database, 'media.created')).toEqual([]);
      const heard = webhooksChanged(r2);
      const res = await r1.request({
        method: 'POST',
        url: '/api/webhooks',
        token,
        payload: { name: 'r', url: 'https://hooks.example.com/r', events: ['media.*'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      await heard;
      expect(await r2.services.activeWebhooks.matching(r2.services.database, 'media.created')).toEqual([res.json().data.webhook.id]);
    } finally {
      await r2?.close();
      await r1.close();
    }
  });
});
