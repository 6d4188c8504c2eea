import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { expectSpecError } from '../helpers/expect-error.js';
import { useWebhookSuite } from '../helpers/webhook-suite.js';

// Retrying by hand, broken secrets, and `POST /webhooks/:id/test` (docs/webhooks.md, "Retries",
// "Testing a webhook") against a real receiver on loopback (test/helpers/webhook-suite.ts).
const s = useWebhookSuite();
const { hook, deliveries, delivery, queue, statusOf, answerInTurn, afterAClaim } = s;

describe('retrying and broken secrets', () => {
  it('sends a dead delivery again when it is retried by hand', async () => {
    const h = await hook();
    answerInTurn(h.path, [404]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    const res = await s.t.request({ method: 'POST', url: `/api/webhooks/${h.id}/deliveries/${row.id}/retry`, token: s.admin });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 2, lastStatusCode: 204 });
    expect(s.receiver.to(h.path).map((r) => r.headers['webhook-id'])).toEqual([row.eventId, row.eventId]);
  });

  it('gives a delivery up whose signing secret no longer opens, naming the cause', async () => {
    const h = await hook();
    await s.t.app.services.database.db
      .updateTable('webhooks')
      .set({ secret_enc: 'v1.broken.sealed.secret' })
      .where('id', '=', h.id)
      .execute();
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect((await delivery(h.id, row.id)).lastError).toContain('signing secret cannot be opened');
    expect(s.receiver.to(h.path)).toHaveLength(0);
  });
});

describe('POST /webhooks/:id/test', () => {
  it('sends a signed webhook.test event now and answers the recorded delivery', async () => {
    const h = await hook();
    const res = await s.t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: s.admin });
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
    const [got] = s.receiver.to(h.path);
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
      const res = await s.t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: s.admin });
      expect(res.json().data).toMatchObject({
        status: 'dead',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: null,
      });
    }
    const got = (await s.t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: s.admin })).json().data;
    expect(got).toMatchObject({ active: true, consecutiveFailures: 0 });
    // The worker does not pick the dead test deliveries up.
    await afterAClaim();
    const all = await deliveries(h.id);
    expect(all.map((d) => d.status)).toEqual(['dead', 'dead', 'dead', 'dead']);
    expect(s.receiver.to(h.path)).toHaveLength(4);
    // Retried by hand, the worker sends it once more, still as one attempt: dead again, not counted.
    const retry = () => s.t.request({ method: 'POST', url: `/api/webhooks/${h.id}/deliveries/${all[0].id}/retry`, token: s.admin });
    expect((await retry()).statusCode).toBe(200);
    await expect
      .poll(async () => [(await delivery(h.id, all[0].id)).status, (await delivery(h.id, all[0].id)).attempts])
      .toEqual(['dead', 2]);
    expect(await delivery(h.id, all[0].id)).toMatchObject({ status: 'dead', lastStatusCode: 500, nextAttemptAt: null });
    const after = (await s.t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: s.admin })).json().data;
    expect(after.consecutiveFailures).toBe(0);
    // And once the receiver is fine, a retry delivers it.
    expect((await retry()).statusCode).toBe(200);
    await expect.poll(statusOf(h.id, all[0].id)).toBe('succeeded');
  });

  it('sends to a switched-off hook too', async () => {
    const h = await hook();
    const off = await s.t.request({
      method: 'PUT',
      url: `/api/webhooks/${h.id}`,
      token: s.admin,
      payload: { name: 'Off', url: s.receiver.url(h.path), events: ['*'], active: false },
    });
    expect(off.json().data.active).toBe(false);
    const res = await s.t.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: s.admin });
    expect(res.json().data.status).toBe('succeeded');
    expect(s.receiver.to(h.path)).toHaveLength(1);
  });

  it('answers 404 for an unknown webhook', async () => {
    const res = await s.t.request({ method: 'POST', url: '/api/webhooks/nope/test', token: s.admin });
    expectSpecError(res, 404, 'NOT_FOUND');
  });
});
