import { insertDelivery, type StoredDelivery } from '../../storage/webhooks/webhook-deliveries-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { sendWebhook } from './deliver-webhook.js';
import { requireWebhook } from './manage-webhooks.js';
import { toDeliveryView, type WebhookDeliveryView } from './webhook-input.js';

/**
 * `POST /webhooks/:id/test`: sends a `webhook.test` event now, through the same attempt code as
 * the worker, even to a switched-off hook (to check it before switching it back on). One attempt,
 * recorded as `succeeded` or `dead`: never retried and never counted toward switching the hook off.
 */
export async function testWebhook(svc: Services, actor: Principal, id: string): Promise<WebhookDeliveryView> {
  // 1. Permission; 404 for an unknown hook.
  requirePermission(actor, 'webhooks:test');
  const hook = await requireWebhook(svc, id);
  // 2. The event, signed and sent at once.
  const createdAt = svc.now();
  const eventId = uuidv7(createdAt.getTime());
  const payload = JSON.stringify({
    id: eventId,
    type: 'webhook.test',
    timestamp: createdAt.toISOString(),
    data: { webhookId: hook.id, name: hook.name },
  });
  const outcome = await sendWebhook(svc, { url: hook.url, secretEnc: hook.secretEnc, eventId, payload });
  // 3. Recorded in the hook's deliveries log, final either way.
  const delivered = outcome.kind === 'delivered';
  const row: StoredDelivery = {
    id: uuidv7(createdAt.getTime()),
    webhookId: hook.id,
    eventId,
    eventType: 'webhook.test',
    payload,
    status: delivered ? 'succeeded' : 'dead',
    attempts: 1,
    nextAttemptAt: null,
    claimedUntil: null,
    lastStatusCode: outcome.statusCode,
    lastDurationMs: outcome.durationMs,
    lastError: delivered ? null : outcome.error,
    createdAt: createdAt.toISOString(),
    deliveredAt: delivered ? svc.now().toISOString() : null,
  };
  await insertDelivery(svc.database, row);
  return toDeliveryView(row);
}
