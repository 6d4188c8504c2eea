import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { queueDelivery } from '../helpers/queue-delivery.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// The delivery worker and the test send (docs/webhooks.md, "Delivery", "Retries", "Testing a
// webhook"), against a real receiver on loopback. A fast schedule: two retries 100 ms apart, a
// 1 s attempt deadline, hooks switched off after 3 failed attempts in a row.
let t: TestApp;
let admin: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
useAdminApp(
  () =>
    startTestApp({
      schemas: TEST_SCHEMAS,
      webhooks: { worker: true, allowPrivateNetworks: true, timeout: '1s', retrySchedule: ['100ms', '100ms'], disableAfterFailures: 3 },
    }),
  (app, token) => {
    t = app;
    admin = token;
  },
);
afterAll(() => receiver.close());

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  eventType: string;
  eventId: string;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

let paths = 0;
/** A hook on its own receiver path, so each test reads only its own requests. */
async function hook(events = ['document.*']) {
  const path = `/h${++paths}`;
  const res = await t.request({
    method: 'POST',
    url: '/api/webhooks',
    token: admin,
    payload: { name: `Hook ${path}`, url: receiver.url(path), events },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { secret, webhook } = res.json().data as { secret: string; webhook: { id: string } };
  return { id: webhook.id, secret, path };
}

async function deliveries(hookId: string): Promise<Delivery[]> {
  const res = await t.request({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries`, token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function delivery(hookId: string, id: string): Promise<Delivery> {
  const found = (await deliveries(hookId)).find((d) => d.id === id);
  if (!found) throw new Error(`delivery ${id} not listed`);
  return found;
}

/** Queues one event for the hook and wakes the worker, as the outbox will. */
async function queue(hookId: string) {
  const row = await queueDelivery(t.app.services.database, hookId);
  t.app.services.deliveryQueue.wake();
  return row;
}

const statusOf = (hookId: string, id: string) => async () => (await delivery(hookId, id)).status;

/** What each path answers in turn (302: a redirect to `<path>-target`), then 204. */
const answers = new Map<string, Array<number | 'hang'>>();
const answerInTurn = (path: string, statuses: Array<number | 'hang'>) => answers.set(path, statuses);

/** Waits for one worker claim after now to have run: an event for a fresh hook is delivered. */
async function afterAClaim() {
  const control = await hook();
  const row = await queue(control.id);
  await expect.poll(statusOf(control.id, row.id)).toBe('succeeded');
}
beforeAll(() =>
  receiver.answer((req: ReceivedRequest, nth) => {
    const turn = answers.get(req.path)?.[nth];
    if (turn === 'hang') return 'hang';
    if (turn === 302) return { status: 302, location: receiver.url(`${req.path}-target`) };
    return { status: turn ?? 204 };
  }),
);

describe('the delivery worker', () => {
  it('delivers a queued event once, signed so standardwebhooks verifies it, and logs the attempt', async () => {
    const h = await hook();
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    const got = receiver.to(h.path);
    expect(got).toHaveLength(1);
    expect(got[0].method).toBe('POST');
    expect(got[0].headers['content-type']).toBe('application/json');
    expect(got[0].headers['webhook-id']).toBe(row.eventId);
    expect(got[0].body).toBe(row.payload);
    expect(new Webhook(h.secret).verify(got[0].body, got[0].headers as Record<string, string>)).toEqual(JSON.parse(row.payload));
    const d = await delivery(h.id, row.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
    expect(d.lastDurationMs).toEqual(expect.any(Number));
    expect(Date.parse(d.deliveredAt ?? '')).toBeGreaterThan(0);
  });

  it('retries after a 500 with the same webhook-id, and succeeds', async () => {
    const h = await hook();
    answerInTurn(h.path, [500]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    const got = receiver.to(h.path);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([row.eventId, row.eventId]);
    for (const r of got) expect(() => new Webhook(h.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 2, lastStatusCode: 204, lastError: null });
  });

  it('retries after a 429', async () => {
    const h = await hook();
    answerInTurn(h.path, [429]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(receiver.to(h.path)).toHaveLength(2);
  });

  it('retries after a timeout (the receiver never answers within webhooks.timeout)', async () => {
    const h = await hook();
    answerInTurn(h.path, ['hang']);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(receiver.to(h.path)).toHaveLength(2);
    expect((await delivery(h.id, row.id)).attempts).toBe(2);
  });

  it('gives up at once on another 4xx: dead after one attempt', async () => {
    const h = await hook();
    answerInTurn(h.path, [410, 410, 410]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 1, lastStatusCode: 410, lastError: 'HTTP 410', nextAttemptAt: null });
    expect(receiver.to(h.path)).toHaveLength(1);
  });

  it('does not follow a redirect: dead, and the redirect target is never called', async () => {
    const h = await hook();
    answerInTurn(h.path, [302, 302, 302]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 1, lastStatusCode: 302, lastError: 'HTTP 302 redirect, not followed' });
    expect(receiver.to(h.path)).toHaveLength(1);
    expect(receiver.to(`${h.path}-target`)).toHaveLength(0);
  });

  it('is dead after the schedule is spent, the log showing attempts, status, duration and error', async () => {
    const h = await hook();
    answerInTurn(h.path, [503, 503, 503, 503]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    const d = await delivery(h.id, row.id);
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: null, deliveredAt: null });
    expect(d.lastDurationMs).toEqual(expect.any(Number));
    expect(receiver.to(h.path)).toHaveLength(3);
  });

  it('switches a hook off after its failure run, keeps its deliveries waiting, and resumes when it is switched on', async () => {
    const h = await hook();
    answerInTurn(h.path, [500, 500, 500]);
    const first = await queue(h.id);
    // Three failed attempts in a row (webhooks.disableAfterFailures: 3) switch it off.
    const got = async () => (await t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: admin })).json().data;
    await expect.poll(async () => (await got()).active).toBe(false);
    const off = await got();
    expect(off.consecutiveFailures).toBe(3);
    expect(off.disabledReason).toBe('3 failed attempts in a row; last: HTTP 500');
    expect(Date.parse(off.disabledAt)).toBeGreaterThan(0);
    expect(await delivery(h.id, first.id)).toMatchObject({ status: 'dead', attempts: 3 });
    // A new event for the switched-off hook waits: not claimed, not sent.
    const waiting = await queue(h.id);
    const sent = receiver.to(h.path).length;
    await afterAClaim();
    expect(await delivery(h.id, waiting.id)).toMatchObject({ status: 'pending', attempts: 0 });
    // Switched on again (the receiver is fine now): the failure count goes and the waiting one is delivered.
    const on = await t.request({
      method: 'PUT',
      url: `/api/webhooks/${h.id}`,
      token: admin,
      payload: { name: off.name, url: off.url, events: off.events, active: true },
    });
    expect(on.json().data).toMatchObject({ active: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
    t.app.services.deliveryQueue.wake();
    await expect.poll(statusOf(h.id, waiting.id)).toBe('succeeded');
    expect(receiver.to(h.path).length).toBe(sent + 1);
  });
});

describe('retrying and broken secrets', () => {
  it('sends a dead delivery again when it is retried by hand', async () => {
    const h = await hook();
    answerInTurn(h.path, [404]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    const res = await t.request({ method: 'POST', url: `/api/webhooks/${h.id}/deliveries/${row.id}/retry`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 2, lastStatusCode: 204 });
    expect(receiver.to(h.path).map((r) => r.headers['webhook-id'])).toEqual([row.eventId, row.eventId]);
  });

  it('gives a delivery up whose signing secret no longer opens, naming the cause', async () => {
    const h = await hook();
    await t.app.services.database.db
      .updateTable('webhooks')
      .set({ secret_enc: 'v1.broken.sealed.secret' })
      .where('id', '=', h.id)
      .execute();
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect((await delivery(h.id, row.id)).lastError).toContain('signing secret cannot be opened');
    expect(receiver.to(h.path)).toHaveLength(0);
  });
});

describe('POST /webhooks/:id/test', () => {
  it('sends a signed webhook.test event now and answers the recorded delivery', async () => {
    const h = await hook();
    const res = await t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({
      webhookId: h.id,
      eventType: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
    });
    const [got] = receiver.to(h.path);
    const event = new Webhook(h.secret).verify(got.body, got.headers as Record<string, string>) as Record<string, unknown>;
    expect(event).toEqual({
      id: d.eventId,
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhookId: h.id, name: `Hook ${h.path}` },
    });
    expect(got.headers['webhook-id']).toBe(d.eventId);
    expect((await deliveries(h.id)).map((x) => x.id)).toEqual([d.id]);
  });

  it('records a failure as dead, never retried and not counted toward switching the hook off', async () => {
    const h = await hook();
    answerInTurn(h.path, [500, 500, 500, 500, 500]);
    for (let i = 0; i < 4; i++) {
      const res = await t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: admin });
      expect(res.json().data).toMatchObject({
        status: 'dead',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: null,
      });
    }
    const got = (await t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: admin })).json().data;
    expect(got).toMatchObject({ active: true, consecutiveFailures: 0 });
    // The worker does not pick the dead test deliveries up.
    await afterAClaim();
    const all = await deliveries(h.id);
    expect(all.map((d) => d.status)).toEqual(['dead', 'dead', 'dead', 'dead']);
    expect(receiver.to(h.path)).toHaveLength(4);
    // Retried by hand, the worker sends it once more, still as one attempt: dead again, not counted.
    const retry = () => t.request({ method: 'POST', url: `/api/webhooks/${h.id}/deliveries/${all[0].id}/retry`, token: admin });
    expect((await retry()).statusCode).toBe(200);
    await expect
      .poll(async () => [(await delivery(h.id, all[0].id)).status, (await delivery(h.id, all[0].id)).attempts])
      .toEqual(['dead', 2]);
    expect(await delivery(h.id, all[0].id)).toMatchObject({ status: 'dead', lastStatusCode: 500, nextAttemptAt: null });
    const after = (await t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: admin })).json().data;
    expect(after.consecutiveFailures).toBe(0);
    // And once the receiver is fine, a retry delivers it.
    expect((await retry()).statusCode).toBe(200);
    await expect.poll(statusOf(h.id, all[0].id)).toBe('succeeded');
  });

  it('sends to a switched-off hook too', async () => {
    const h = await hook();
    const off = await t.request({
      method: 'PUT',
      url: `/api/webhooks/${h.id}`,
      token: admin,
      payload: { name: 'Off', url: receiver.url(h.path), events: ['*'], active: false },
    });
    expect(off.json().data.active).toBe(false);
    const res = await t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: admin });
    expect(res.json().data.status).toBe('succeeded');
    expect(receiver.to(h.path)).toHaveLength(1);
  });

  it('answers 404 for an unknown webhook', async () => {
    const res = await t.request({ method: 'POST', url: '/api/webhooks/nope/test', token: admin });
    expectSpecError(res, 404, 'NOT_FOUND');
  });
});
