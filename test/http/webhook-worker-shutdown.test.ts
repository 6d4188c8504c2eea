import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { queueDelivery } from '../helpers/queue-delivery.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// Closing the app (SIGTERM in `vellum serve`) stops the worker before the database closes: the
// attempt in flight finishes and is recorded (docs/webhooks.md, "Delivery").
let receiver: WebhookReceiver;
let db: TestDatabase;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  db = await createTestDatabase();
});
afterAll(async () => {
  await receiver?.close();
  await db?.drop();
});

describe('closing the app', () => {
  it('waits for the attempt in flight and records it before the database closes', async () => {
    const config = resolveConfig(
      { database: { url: db.url }, security: { bcryptRounds: 4, adminUser: ADMIN }, webhooks: { allowPrivateNetworks: true } },
      {},
    );
    const app = await createApp(config);
    const login = await app.server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    const created = await app.server.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: { authorization: `Bearer ${login.json().data.token}` },
      payload: { name: 'Slow', url: receiver.url('/slow'), events: ['*'] },
    });
    const hookId = created.json().data.webhook.id as string;
    // The receiver answers half a second after the request arrives; the app is closed meanwhile.
    receiver.answer(() => ({ status: 204, delayMs: 500 }));
    const row = await queueDelivery(app.services.database, hookId);
    app.services.deliveryQueue.wake();
    await expect.poll(() => receiver.to('/slow').length).toBe(1);
    await app.close();
    const after = await openDatabase(db.url);
    try {
      const stored = await after.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ status: 'succeeded', last_status_code: 204, claimed_until: null });
    } finally {
      await after.close();
    }
  });
});
