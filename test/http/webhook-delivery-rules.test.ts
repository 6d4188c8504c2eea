import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhook, updateWebhook } from '../../packages/server/src/storage/webhooks/webhooks-store.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { queueDelivery } from '../helpers/queue-delivery.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// Delivery under the default network guard, with an hour-long retry, and the retention sweep
// (docs/webhooks.md, "Network safety", "Retries", "Configuration"). Two apps: `guarded` keeps the
// defaults (private addresses refused); `slow` reaches loopback, retries once after 1 h, and
// deletes finished deliveries after 30 s.
let guarded: TestApp;
let slow: TestApp;
const tokens = new Map<TestApp, string>();
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  guarded = await startTestApp({ webhooks: { worker: true } });
  slow = await startTestApp({ webhooks: { worker: true, allowPrivateNetworks: true, retrySchedule: ['1h'], retention: '30s' } });
  for (const t of [guarded, slow]) tokens.set(t, await t.login(ADMIN.username, ADMIN.password));
});
afterAll(async () => {
  await guarded?.close();
  await slow?.close();
  await receiver?.close();
});

let paths = 0;
async function hook(t: TestApp) {
  const path = `/r${++paths}`;
  // `guarded` refuses a loopback URL when it is saved (docs/webhooks.md, "Network safety"), so its
  // hooks are saved with a public address and pointed at the receiver underneath, as a hook whose
  // name resolves elsewhere later would be: the check at delivery is what these tests are about.
  const res = await t.request({
    method: 'POST',
    url: '/api/webhooks',
    token: tokens.get(t),
    payload: { name: 'Rules', url: t === guarded ? 'http://198.41.0.4/hook' : receiver.url(path), events: ['*'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.webhook.id as string;
  if (t === guarded) await pointAt(t, id, receiver.url(path));
  return { id, path };
}

async function pointAt(t: TestApp, id: string, url: string) {
  const stored = await findWebhook(t.app.services.database, id);
  if (!stored) throw new Error(`webhook ${id} is gone`);
  await updateWebhook(t.app.services.database, id, { ...stored, url, reactivated: false, updatedAt: new Date().toISOString() });
  t.app.services.activeWebhooks.invalidate();
}

async function delivery(t: TestApp, hookId: string, id: string) {
  const res = await t.request({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries`, token: tokens.get(t) });
  return (res.json().data as Array<Record<string, unknown>>).find((d) => d.id === id);
}

describe('without webhooks.allowPrivateNetworks', () => {
  it('refuses a loopback URL: the delivery is dead at once, naming the refused address, and nothing is sent', async () => {
    const h = await hook(guarded);
    const row = await queueDelivery(guarded.app.services.database, h.id);
    guarded.app.services.deliveryQueue.wake();
    await expect.poll(async () => (await delivery(guarded, h.id, row.id))?.status).toBe('dead');
    expect(await delivery(guarded, h.id, row.id)).toMatchObject({
      attempts: 1,
      lastStatusCode: null,
      lastError: 'refused address 127.0.0.1 (loopback); see webhooks.allowPrivateNetworks',
    });
    expect(receiver.to(h.path)).toHaveLength(0);
  });

  it('refuses it for a test send too', async () => {
    const h = await hook(guarded);
    const res = await guarded.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: tokens.get(guarded) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'dead', lastError: expect.stringContaining('refused address 127.0.0.1') });
    expect(receiver.to(h.path)).toHaveLength(0);
  });
});

describe('the retry schedule', () => {
  it('leaves a failed delivery failed, with its next attempt in the log one schedule step (±20 %) later', async () => {
    const h = await hook(slow);
    receiver.answer((req) => ({ status: req.path === h.path ? 500 : 204 }));
    const row = await queueDelivery(slow.app.services.database, h.id);
    const queuedAt = Date.now();
    slow.app.services.deliveryQueue.wake();
    await expect.poll(async () => (await delivery(slow, h.id, row.id))?.status).toBe('failed');
    const d = (await delivery(slow, h.id, row.id)) as { nextAttemptAt: string; lastDurationMs: number };
    expect(d).toMatchObject({ attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', deliveredAt: null });
    expect(d.lastDurationMs).toEqual(expect.any(Number));
    const wait = Date.parse(d.nextAttemptAt) - queuedAt;
    expect(wait).toBeGreaterThan(0.8 * 3_600_000 - 60_000);
    expect(wait).toBeLessThan(1.2 * 3_600_000 + 60_000);
    const got = (await slow.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: tokens.get(slow) })).json().data;
    expect(got.consecutiveFailures).toBe(1);
  });
});

describe('webhooks.retention', () => {
  it('deletes succeeded and dead deliveries older than the retention, and keeps newer and unfinished ones', async () => {
    const h = await hook(slow);
    // Switched off, so the worker claims none of these and only the sweep acts on them.
    const put = await slow.request({
      method: 'PUT',
      url: `/api/webhooks/${h.id}`,
      token: tokens.get(slow),
      payload: { name: 'Rules', url: receiver.url(h.path), events: ['*'], active: false },
    });
    expect(put.statusCode).toBe(200);
    const db = slow.app.services.database;
    const old = '2020-01-01T00:00:00.000Z';
    const oldSucceeded = await queueDelivery(db, h.id, { status: 'succeeded', createdAt: old, deliveredAt: old, nextAttemptAt: null });
    const oldDead = await queueDelivery(db, h.id, { status: 'dead', createdAt: old, nextAttemptAt: null });
    const oldFailed = await queueDelivery(db, h.id, { status: 'failed', createdAt: old, nextAttemptAt: '2099-01-01T00:00:00.000Z' });
    const oldPending = await queueDelivery(db, h.id, { createdAt: old });
    const fresh = await queueDelivery(db, h.id, { status: 'succeeded', deliveredAt: new Date().toISOString(), nextAttemptAt: null });
    const ids = async () => {
      const res = await slow.request({ method: 'GET', url: `/api/webhooks/${h.id}/deliveries?limit=100`, token: tokens.get(slow) });
      return (res.json().data as Array<{ id: string }>).map((d) => d.id).sort();
    };
    // The sweep runs every tenth of the retention (3 s here).
    await expect.poll(ids).toEqual([oldFailed.id, oldPending.id, fresh.id].sort());
    expect(await ids()).not.toContain(oldSucceeded.id);
    expect(await ids()).not.toContain(oldDead.id);
  });
});
