import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import type { Conn } from '../../packages/server/src/storage/connection.js';
import { insertDelivery, type StoredDelivery } from '../../packages/server/src/storage/webhooks/webhook-deliveries-store.js';

/**
 * Queues a delivery as the outbox does (a `pending` row due now, the payload `{id, type,
 * timestamp, data}` as text, `event_id` = the payload's id), for the worker tests until the
 * outbox writes them itself. `extra` overrides fields (an old `createdAt`, another status).
 */
export async function queueDelivery(conn: Conn, webhookId: string, extra: Partial<StoredDelivery> = {}): Promise<StoredDelivery> {
  const now = new Date();
  const eventId = uuidv7(now.getTime());
  const row: StoredDelivery = {
    id: uuidv7(now.getTime()),
    webhookId,
    eventId,
    eventType: 'document.created',
    payload: JSON.stringify({
      id: eventId,
      type: 'document.created',
      timestamp: now.toISOString(),
      data: { _id: `doc-${eventId.slice(-6)}` },
    }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now.toISOString(),
    claimedUntil: null,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: null,
    createdAt: now.toISOString(),
    deliveredAt: null,
    ...extra,
  };
  await insertDelivery(conn, row);
  return row;
}
