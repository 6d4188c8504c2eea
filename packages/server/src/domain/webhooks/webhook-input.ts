import type { Webhook, WebhookDelivery, WebhookInput } from '@vellum/client';
import { errors, type ErrorDetail } from '../../errors.js';
import type { StoredDelivery } from '../../storage/webhooks/webhook-deliveries-store.js';
import type { StoredWebhook } from '../../storage/webhooks/webhooks-store.js';
import { isEventPattern } from './webhook-events.js';

/** Wire shapes, declared once by the client (docs/architecture.md, "Packages"). */
export type WebhookView = Webhook;
export type WebhookDeliveryView = WebhookDelivery;

/** The served webhook: an allowlist, so the sealed secret cannot slip into a response. */
export function toWebhookView(w: StoredWebhook): WebhookView {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events,
    types: w.types,
    active: w.active,
    consecutiveFailures: w.consecutiveFailures,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    createdBy: w.createdBy,
  };
}

/** The served delivery: not its payload (the event as sent), which the list would make heavy. */
export function toDeliveryView(d: StoredDelivery): WebhookDeliveryView {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    lastStatusCode: d.lastStatusCode,
    lastDurationMs: d.lastDurationMs,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
  };
}

export interface CheckedWebhookInput {
  name: string;
  url: string;
  events: string[];
  types: string[];
  active: boolean;
}

/**
 * Checks a create or replace body, all fields at once so the caller sees every problem: a name,
 * an absolute http(s) URL, events from the fixed list (or `document.*`, `*`), registered types.
 * Lists are de-duplicated in their given order.
 */
export function checkWebhookInput(input: WebhookInput, typeNames: ReadonlySet<string>): CheckedWebhookInput {
  const details: ErrorDetail[] = [];
  const name = input.name.trim();
  if (name === '' || name.length > 200) details.push({ field: 'name', message: 'must be 1–200 characters' });
  const url = checkUrl(input.url);
  if (url === undefined) details.push({ field: 'url', message: 'must be an absolute http or https URL' });
  if (input.events.length === 0) details.push({ field: 'events', message: 'must name at least one event' });
  input.events.forEach((e, i) => {
    if (!isEventPattern(e)) details.push({ field: `events.${i}`, message: `unknown event ${JSON.stringify(e)}` });
  });
  const types = input.types ?? [];
  types.forEach((t, i) => {
    if (!typeNames.has(t)) details.push({ field: `types.${i}`, message: `unknown document type ${JSON.stringify(t)}` });
  });
  if (details.length > 0 || url === undefined) throw errors.validation(details);
  return { name, url, events: [...new Set(input.events)], types: [...new Set(types)], active: input.active ?? true };
}

function checkUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Credentials in the URL would be served back by every GET: the secret is the way to authenticate.
  if (url.username !== '' || url.password !== '') return undefined;
  return url.href;
}
