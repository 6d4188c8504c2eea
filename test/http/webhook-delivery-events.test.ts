import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { postDocument } from '../helpers/post-document.js';
import { startTestApp, useAdminApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// Every event kind, end to end (docs/webhooks.md, "Events" and "Delivery"): the API write queues
// it, the worker sends it to a real receiver on loopback, and the `standardwebhooks` package
// verifies the signature over the body as received.
let t: TestApp;
let admin: string;
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, webhooks: { allowPrivateNetworks: true, worker: true } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function ok(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) {
  const res = await t.request({ method, url, token, payload: payload as never });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().data;
}

async function upload(file: Buffer, filename: string) {
  const res = await t.request({ method: 'POST', url: '/api/media', token: admin, ...(await multipartUpload(file, filename)) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe('every event kind reaches a real receiver, signed', () => {
  it('delivers all eleven events with Standard Webhooks headers the standardwebhooks package verifies', async () => {
    const { secret } = await ok('POST', '/api/webhooks', { name: 'all', url: receiver.url('/all'), events: ['*'] });
    // Documents: created, updated, published, unpublished, deleted.
    const doc = await postDocument(t, admin, 'company', { name: 'Delivered' });
    await ok('PATCH', `/api/documents/company/${doc._id}`, { country: 'fr' });
    await ok('PATCH', `/api/documents/company/${doc._id}`, { _status: 'published' });
    await ok('PATCH', `/api/documents/company/${doc._id}`, { _status: 'draft' });
    await ok('DELETE', `/api/documents/company/${doc._id}`);
    // Media: created, updated, deleted.
    const media = await upload(await png(4, 4), 'pixel.png');
    await ok('PATCH', `/api/media/${media._id}`, { alt: 'A pixel' });
    await ok('DELETE', `/api/media/${media._id}`);
    // Users: created, updated, deleted.
    const user = await ok('POST', '/api/users', {
      username: 'delivered',
      email: 'delivered@example.com',
      password: 'delivered-pass-1',
      role: 'viewer',
    });
    await ok('PUT', `/api/users/${user.id}`, { role: 'writer' });
    await ok('DELETE', `/api/users/${user.id}`);

    await expect.poll(() => receiver.to('/all').length, { timeout: 15_000 }).toBe(11);
    const wh = new Webhook(secret);
    const got = receiver.to('/all').map((r) => {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      const verified = wh.verify(r.body, {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      }) as { id: string; type: string; data: Record<string, unknown> };
      expect(r.headers['webhook-id']).toBe(verified.id);
      return verified;
    });
    // Delivered concurrently: in id order they are in the order they were made.
    got.sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(got.map((e) => e.type)).toEqual([
      'document.created',
      'document.updated',
      'document.published',
      'document.unpublished',
      'document.deleted',
      'media.created',
      'media.updated',
      'media.deleted',
      'user.created',
      'user.updated',
      'user.deleted',
    ]);
    expect(got[0].data._id).toBe(doc._id);
    expect(got[5].data._id).toBe(media._id);
    expect(got[8].data.id).toBe(user.id);
    // A tampered body does not verify.
    const first = receiver.to('/all')[0];
    expect(() =>
      wh.verify(first.body.replace('"', ' "'), {
        'webhook-id': first.headers['webhook-id'] as string,
        'webhook-timestamp': first.headers['webhook-timestamp'] as string,
        'webhook-signature': first.headers['webhook-signature'] as string,
      }),
    ).toThrow();
    // The log says so: every delivery succeeded, on its first attempt, with the receiver's status.
    const hooks = await ok('GET', '/api/webhooks');
    const hook = hooks.find((w: { name: string }) => w.name === 'all');
    const log = await t.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries?limit=50`, token: admin });
    const rows = log.json().data as Array<{ status: string; attempts: number; lastStatusCode: number }>;
    expect(rows).toHaveLength(11);
    for (const row of rows) expect(row).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204 });
  });

  it('a hook limited to types and events receives only those', async () => {
    await ok('POST', '/api/webhooks', {
      name: 'posts published',
      url: receiver.url('/posts'),
      events: ['document.published'],
      types: ['post'],
    });
    const post = await postDocument(t, admin, 'post', { title: 'Only this one' });
    await postDocument(t, admin, 'company', { name: 'Not this', _status: 'published' });
    await ok('PATCH', `/api/documents/post/${post._id}`, { _status: 'published' });
    await expect.poll(() => receiver.to('/posts').length, { timeout: 15_000 }).toBe(1);
    // Whatever else is in flight has had time to arrive: the all-events hook got the other writes.
    await expect.poll(() => receiver.to('/all').length, { timeout: 15_000 }).toBe(11 + 4);
    expect(receiver.to('/posts')).toHaveLength(1);
    const sent = JSON.parse(receiver.to('/posts')[0].body);
    expect(sent).toMatchObject({ type: 'document.published', data: { _id: post._id, _type: 'post', _status: 'published' } });
  });
});
