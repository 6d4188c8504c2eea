import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import { insertDelivery } from '../../packages/server/src/storage/webhooks/webhook-deliveries-store.js';
import { VellumApiError, VellumClient } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// `client.webhooks.*` against a listening app (docs/api.md, "Webhooks").
let t: TestApp;
let client: VellumClient;

beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
  client = new VellumClient({ baseUrl, token: await t.login(ADMIN.username, ADMIN.password) });
});
afterAll(() => t?.close());

describe('client.webhooks', () => {
  it('creates, reads, lists, updates, rotates and deletes', async () => {
    const { secret, webhook } = await client.webhooks.create({ name: 'Build', url: 'https://ci.example.com/h', events: ['document.*'] });
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ name: 'Build', events: ['document.*'], types: [], active: true });
    expect(await client.webhooks.get(webhook.id)).toEqual(webhook);
    const list = await client.webhooks.list({ limit: 10 });
    expect(list.data.map((w) => w.id)).toContain(webhook.id);
    const updated = await client.webhooks.update(webhook.id, {
      name: 'Build 2',
      url: webhook.url,
      events: ['*'],
      types: ['post'],
      active: false,
    });
    expect(updated).toMatchObject({ name: 'Build 2', events: ['*'], types: ['post'], active: false });
    const rotated = await client.webhooks.rotateSecret(webhook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    await client.webhooks.delete(webhook.id);
    await expect(client.webhooks.get(webhook.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists deliveries and retries a failed one; a validation error carries its details', async () => {
    const { webhook } = await client.webhooks.create({ name: 'D', url: 'https://ci.example.com/d', events: ['media.*'] });
    const id = uuidv7();
    await insertDelivery(t.app.services.database, {
      id,
      webhookId: webhook.id,
      eventId: 'evt_1',
      eventType: 'media.created',
      payload: '{}',
      status: 'dead',
      attempts: 8,
      nextAttemptAt: null,
      claimedUntil: null,
      lastStatusCode: null,
      lastDurationMs: null,
      lastError: 'connection refused',
      createdAt: new Date().toISOString(),
      deliveredAt: null,
    });
    const dead = await client.webhooks.deliveries(webhook.id, { status: 'dead' });
    expect(dead.data.map((d) => d.id)).toEqual([id]);
    expect(await client.webhooks.retryDelivery(webhook.id, id)).toMatchObject({ id, status: 'pending' });
    const err = await client.webhooks.create({ name: 'x', url: 'ftp://nope', events: ['nope'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VellumApiError);
    expect((err as VellumApiError).details?.map((d) => d.field).sort()).toEqual(['events.0', 'url']);
  });
});
