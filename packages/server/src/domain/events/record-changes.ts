import { afterCommit, type Conn } from '../../storage/connection.js';
import type { OutboxRow } from '../../storage/webhooks/webhook-outbox.js';
import { insertOutbox } from '../../storage/webhooks/webhook-outbox.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import type { WebhookEvent } from '../webhooks/webhook-events.js';
import { webhookPayload, type ChangeEvent, type ChangeSubject } from './change-event.js';

/** A new event about a change made at `timestamp`. */
export function changeEvent(type: WebhookEvent, subject: ChangeSubject, data: Record<string, unknown>, timestamp: string): ChangeEvent {
  return { id: uuidv7(Date.parse(timestamp)), type, timestamp, data, subject };
}

/** Which active hooks take each kind of event a write may make (ask before the write: usually no query). */
export async function hooksFor(svc: Services, conn: Conn, types: readonly WebhookEvent[], docType?: string): Promise<HookMap> {
  const map = new Map<WebhookEvent, readonly string[]>();
  for (const type of types) map.set(type, await svc.activeWebhooks.matching(conn, type, docType));
  return map;
}

export type HookMap = ReadonlyMap<WebhookEvent, readonly string[]>;

/** The outbox rows of `events`: one per event per hook that takes it. */
export function outboxRows(events: readonly ChangeEvent[], hooks: HookMap): OutboxRow[] {
  const rows: OutboxRow[] = [];
  for (const event of events) {
    const ids = hooks.get(event.type) ?? [];
    if (ids.length === 0) continue;
    const payload = webhookPayload(event);
    for (const webhookId of ids) {
      rows.push({ id: uuidv7(), webhookId, eventId: event.id, eventType: event.type, payload, at: event.timestamp });
    }
  }
  return rows;
}

/**
 * Inside a write's transaction (`conn`): queues the events for the hooks that take them, and
 * announces them once the transaction commits. A rolled-back write queues and announces nothing
 * (docs/webhooks.md, "Delivery").
 */
export async function recordChanges(svc: Services, conn: Conn, events: readonly ChangeEvent[], docType?: string): Promise<void> {
  const hooks = await hooksFor(svc, conn, [...new Set(events.map((e) => e.type))], docType);
  const rows = outboxRows(events, hooks);
  await insertOutbox(conn, rows);
  afterCommit(conn, () => announceChanges(svc, events, rows.length));
}

/**
 * After commit: the realtime stream hears of the events, and the delivery worker of queued rows.
 * `noticed`: the write's statement sent the events itself (`ChangeBus.notice`).
 */
export function announceChanges(svc: Services, events: readonly ChangeEvent[], queued: number, noticed = false): void {
  // The write has committed and its caller must hear so: a listener's failure is logged, not thrown.
  try {
    if (events.length > 0) svc.events.publish(events, noticed);
    if (queued > 0) svc.deliveryQueue.wake();
  } catch (err) {
    svc.log.error({ err }, 'events: announcing committed changes failed');
  }
}
