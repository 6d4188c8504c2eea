import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { useWebhookSuite } from '../helpers/webhook-suite.js';

// The delivery worker (docs/webhooks.md, "Delivery", "Retries") against a real receiver on
// loopback, with a fast schedule (test/helpers/webhook-suite.ts).
const s = useWebhookSuite();
const { hook, delivery, queue, statusOf, answerInTurn, afterAClaim } = s;

describe('the delivery worker', () => {
  it('delivers a queued event once, signed so standardwebhooks verifies it, and logs the attempt', async () => {
    const h = await hook();
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    const got = s.receiver.to(h.path);
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
    const got = s.receiver.to(h.path);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([row.eventId, row.eventId]);
    for (const r of got) expect(() => new Webhook(h.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 2, lastStatusCode: 204, lastError: null });
  });

  it('retries after a 429', async () => {
    const h = await hook();
    answerInTurn(h.path, [429]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(s.receiver.to(h.path)).toHaveLength(2);
  });

  it('retries after a timeout (the receiver never answers within webhooks.timeout)', async () => {
    const h = await hook();
    answerInTurn(h.path, ['hang']);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('succeeded');
    expect(s.receiver.to(h.path)).toHaveLength(2);
    expect((await delivery(h.id, row.id)).attempts).toBe(2);
  });

  it('gives up at once on another 4xx: dead after one attempt', async () => {
    const h = await hook();
    answerInTurn(h.path, [410, 410, 410]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 1, lastStatusCode: 410, lastError: 'HTTP 410', nextAttemptAt: null });
    expect(s.receiver.to(h.path)).toHaveLength(1);
  });

  it('does not follow a redirect: dead, and the redirect target is never called', async () => {
    const h = await hook();
    answerInTurn(h.path, [302, 302, 302]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    expect(await delivery(h.id, row.id)).toMatchObject({ attempts: 1, lastStatusCode: 302, lastError: 'HTTP 302 redirect, not followed' });
    expect(s.receiver.to(h.path)).toHaveLength(1);
    expect(s.receiver.to(`${h.path}-target`)).toHaveLength(0);
  });

  it('is dead after the schedule is spent, the log showing attempts, status, duration and error', async () => {
    const h = await hook();
    answerInTurn(h.path, [503, 503, 503, 503]);
    const row = await queue(h.id);
    await expect.poll(statusOf(h.id, row.id)).toBe('dead');
    const d = await delivery(h.id, row.id);
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: null, deliveredAt: null });
    expect(d.lastDurationMs).toEqual(expect.any(Number));
    expect(s.receiver.to(h.path)).toHaveLength(3);
  });

  it('switches a hook off after its failure run, keeps its deliveries waiting, and resumes when it is switched on', async () => {
    const h = await hook();
    answerInTurn(h.path, [500, 500, 500]);
    const first = await queue(h.id);
    // Three failed attempts in a row (webhooks.disableAfterFailures: 3) switch it off.
    const got = async () => (await s.t.request({ method: 'GET', url: `/api/webhooks/${h.id}`, token: s.admin })).json().data;
    await expect.poll(async () => (await got()).active).toBe(false);
    const off = await got();
    expect(off.consecutiveFailures).toBe(3);
    expect(off.disabledReason).toBe('3 failed attempts in a row; last: HTTP 500');
    expect(Date.parse(off.disabledAt)).toBeGreaterThan(0);
    expect(await delivery(h.id, first.id)).toMatchObject({ status: 'dead', attempts: 3 });
    // A new event for the switched-off hook waits: not claimed, not sent.
    const waiting = await queue(h.id);
    const sent = s.receiver.to(h.path).length;
    await afterAClaim();
    expect(await delivery(h.id, waiting.id)).toMatchObject({ status: 'pending', attempts: 0 });
    // Switched on again (the receiver is fine now): the failure count goes and the waiting one is delivered.
    const on = await s.t.request({
      method: 'PUT',
      url: `/api/webhooks/${h.id}`,
      token: s.admin,
      payload: { name: off.name, url: off.url, events: off.events, active: true },
    });
    expect(on.json().data).toMatchObject({ active: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
    s.t.app.services.deliveryQueue.wake();
    await expect.poll(statusOf(h.id, waiting.id)).toBe('succeeded');
    expect(s.receiver.to(h.path).length).toBe(sent + 1);
  });
});
