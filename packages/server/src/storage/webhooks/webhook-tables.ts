/** The webhook tables (migration 013; docs/api.md, "Webhooks"). */

export interface WebhooksTable {
  id: string;
  name: string;
  url: string;
  /** JSON list of event names and patterns (`document.*`, `*`). */
  events: string;
  /** JSON list of document types; empty means all. */
  types: string;
  active: number | boolean;
  /** The signing secret, sealed by the secret box: never served after create/rotate. */
  secret_enc: string;
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body sent, so every attempt signs the same bytes. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  claimed_until: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}
