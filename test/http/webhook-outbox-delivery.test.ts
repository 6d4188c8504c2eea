import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import type { JsonObject } from '../helpers/json-object.js';

// End to end (docs/webhooks.md, "The outbox", "Delivery"): a document write queues its event in
// its transaction, wakes the worker after the commit, and the receiver gets it signed, once.
let t: TestApp;
let admin: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, webhooks: { worker: true, allowPrivateNetworks: true } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);
afterAll(() => receiver.close());

describe('a write with a subscribed hook', () => {
  it('is delivered to the receiver, signed, with the event the write made', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: { name: 'Authors', url: receiver.url('/authors'), events: ['document.created'], types: ['author'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { secret, webhook } = res.json().data as { secret: string; webhook: { id: string } };
    const doc = await postDocument(t, admin, 'author', { name: 'Ada' });
    await expect.poll(() => receiver.to('/authors').length).toBe(1);
    const [got] = receiver.to('/authors');
    const event = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as JsonObject;
    expect(event).toMatchObject({ type: 'document.created', data: { _id: doc._id, _type: 'author', name: 'Ada' } });
    expect(got.headers['webhook-id']).toBe(event.id);
    await expect
      .poll(async () => (await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries`, token: admin })).json().data)
      .toEqual([expect.objectContaining({ eventId: event.id, eventType: 'document.created', status: 'succeeded', attempts: 1 })]);
  });
});
