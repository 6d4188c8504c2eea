import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VellumApiError, VellumClient, type ChangeEvent } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { documentEvent, publish } from '../helpers/change-events.js';
import { listeningUrl } from '../helpers/event-stream.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

// client.events.subscribe against a listening app (docs/realtime.md, "Client"): events in order,
// filters, a reconnect that resumes with the last id, the token refresh on 401, refusals.
let t: TestApp;
let baseUrl: string;
let proxy: TcpProxy;

beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  baseUrl = await listeningUrl(t);
  proxy = await startTcpProxy();
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

/** Collects what a subscription receives, and waits for it. */
function collector() {
  const events: ChangeEvent[] = [];
  let opened = 0;
  let resets = 0;
  const errors: unknown[] = [];
  const until = (check: () => boolean) => expect.poll(check, { timeout: 15_000 }).toBe(true);
  return {
    events,
    errors,
    get opened() {
      return opened;
    },
    get resets() {
      return resets;
    },
    onEvent: (e: ChangeEvent) => events.push(e),
    opts: { onOpen: () => opened++, onReset: () => resets++, onError: (err: unknown) => errors.push(err) },
    until,
  };
}

describe('client.events.subscribe', () => {
  it('delivers the events the filters ask for, in order, with their documents', async () => {
    const client = new VellumClient({ baseUrl, token: await t.login(ADMIN.username, ADMIN.password) });
    const c = collector();
    const sub = client.events.subscribe({ types: ['post'], events: ['document.created', 'document.deleted'] }, c.onEvent, c.opts);
    try {
      await c.until(() => c.opened === 1);
      const sent = await publish(
        t,
        documentEvent('document.created', 'post', { data: { title: 'A' } }),
        documentEvent('document.updated', 'post'),
        documentEvent('document.created', 'author'),
        documentEvent('document.deleted', 'post'),
      );
      await c.until(() => c.events.length === 2);
      expect(c.events.map((e) => e.id)).toEqual([sent[0].id, sent[3].id]);
      expect(c.events[0].document).toEqual(sent[0].data);
      expect(c.events[0].subject).toEqual(sent[0].subject);
      expect(sub.lastEventId).toBe(sent[3].id);
    } finally {
      sub.close();
    }
  });

  it('reconnects after the connection is cut and resumes with the last id: nothing missed, nothing twice', async () => {
    const client = new VellumClient({ baseUrl: proxy.via(baseUrl), token: await t.login(ADMIN.username, ADMIN.password) });
    const c = collector();
    const sub = client.events.subscribe({ types: ['company'] }, c.onEvent, c.opts);
    try {
      await c.until(() => c.opened === 1);
      const [first] = await publish(t, documentEvent('document.created', 'company'));
      await c.until(() => c.events.length === 1);
      await proxy.setMode('refuse');
      const missed = await publish(t, documentEvent('document.updated', 'company'), documentEvent('document.deleted', 'company'));
      await proxy.setMode('forward');
      await c.until(() => c.events.length === 3);
      expect(c.events.map((e) => e.id)).toEqual([first.id, ...missed.map((e) => e.id)]);
      expect(c.opened).toBeGreaterThanOrEqual(2);
      expect(c.resets).toBe(0);
    } finally {
      sub.close();
    }
  });

  it('refreshes an expired access token once through the transport (401), then streams', async () => {
    const client = new VellumClient({ baseUrl });
    await client.auth.login(ADMIN.username, ADMIN.password);
    const held = client.tokens!;
    client.transport.replaceTokens({ ...held, accessToken: 'not-a-valid-token' });
    const c = collector();
    const sub = client.events.subscribe({}, c.onEvent, c.opts);
    try {
      await c.until(() => c.opened === 1);
      expect(client.tokens?.accessToken).not.toBe('not-a-valid-token');
      const [e] = await publish(t, documentEvent('document.created', 'post'));
      await c.until(() => c.events.some((x) => x.id === e.id));
    } finally {
      sub.close();
    }
  });

  it('a refusal (unknown type) ends the subscription and is reported', async () => {
    const client = new VellumClient({ baseUrl, token: await t.login(ADMIN.username, ADMIN.password) });
    const c = collector();
    const willRetry: boolean[] = [];
    const sub = client.events.subscribe({ types: ['nosuch'] }, c.onEvent, {
      onError: (err, retry) => (c.errors.push(err), willRetry.push(retry)),
    });
    try {
      await c.until(() => c.errors.length === 1);
      expect(c.errors[0]).toBeInstanceOf(VellumApiError);
      expect((c.errors[0] as VellumApiError).status).toBe(400);
      expect(willRetry).toEqual([false]);
    } finally {
      sub.close();
    }
  });

  it('an unknown lastEventId gets onReset', async () => {
    const client = new VellumClient({ baseUrl, token: await t.login(ADMIN.username, ADMIN.password) });
    const c = collector();
    const sub = client.events.subscribe({ lastEventId: '00000000-0000-7000-8000-000000000000' }, c.onEvent, c.opts);
    try {
      await c.until(() => c.resets === 1);
      expect(c.events).toEqual([]);
    } finally {
      sub.close();
    }
  });
});
