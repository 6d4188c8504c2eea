import type { ChangeSubject } from '@vellum/client';
import type { WebhookEvent } from '../webhooks/webhook-events.js';

/**
 * What changed, for webhook type filters and the realtime stream's filters and permission checks:
 * the stream sends it as it is, so the client declares it (docs/architecture.md, "Packages").
 */
export type { ChangeSubject };

/**
 * One committed change (docs/webhooks.md, "Events"). The webhook payload is
 * `{id, type, timestamp, data}` of it; the realtime stream sends `subject` and, to callers who may
 * read it, `data`.
 */
export interface ChangeEvent {
  /** UUIDv7, so ids sort by time: the payload's `id` and the `webhook-id` header. */
  id: string;
  type: WebhookEvent;
  /** ISO 8601 UTC, when the change was made. */
  timestamp: string;
  /** The resource as an admin reads it (a deleted one as it was); never a secret or hash. */
  data: Record<string, unknown>;
  subject: ChangeSubject;
}

/** The webhook payload of an event, exactly as it is signed and sent. */
export function webhookPayload(event: ChangeEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
}
