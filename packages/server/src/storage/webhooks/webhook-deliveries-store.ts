import type { Conn } from '../connection.js';
import type { WebhookDeliveriesTable } from './webhook-tables.js';

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'dead';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivering', 'succeeded', 'failed', 'dead'];

export interface StoredDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  claimedUntil: string | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

function toDelivery(r: WebhookDeliveriesTable): StoredDelivery {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    payload: r.payload,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at,
    claimedUntil: r.claimed_until,
    lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
    lastDurationMs: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
    lastError: r.last_error,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at,
  };
}

export async function insertDelivery(conn: Conn, d: StoredDelivery): Promise<void> {
  await conn.db
    .insertInto('webhook_deliveries')
    .values({
      id: d.id,
      webhook_id: d.webhookId,
      event_id: d.eventId,
      event_type: d.eventType,
      payload: d.payload,
      status: d.status,
      attempts: d.attempts,
      next_attempt_at: d.nextAttemptAt,
      claimed_until: d.claimedUntil,
      last_status_code: d.lastStatusCode,
      last_duration_ms: d.lastDurationMs,
      last_error: d.lastError,
      created_at: d.createdAt,
      delivered_at: d.deliveredAt,
    })
    .execute();
}

export async function findDelivery(conn: Conn, webhookId: string, id: string): Promise<StoredDelivery | undefined> {
  const row = await conn.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toDelivery(row) : undefined;
}

/** One webhook's deliveries, newest first (index on webhook_id, created_at). */
export async function listDeliveries(
  conn: Conn,
  webhookId: string,
  q: { status?: DeliveryStatus; limit: number; offset: number },
): Promise<{ rows: StoredDelivery[]; total: number }> {
  let rows = conn.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  let count = conn.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('webhook_id', '=', webhookId);
  if (q.status) {
    rows = rows.where('status', '=', q.status);
    count = count.where('status', '=', q.status);
  }
  const found = await rows.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
  const { n } = await count.executeTakeFirstOrThrow();
  return { rows: found.map(toDelivery), total: Number(n) };
}

/**
 * Puts a failed or dead delivery back in the queue, due now. One conditional update, so a retry
 * racing the worker cannot resurrect a delivery that is in flight or done: false when the row
 * was in neither state.
 */
export async function requeueDelivery(conn: Conn, webhookId: string, id: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, claimed_until: null })
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'dead'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
