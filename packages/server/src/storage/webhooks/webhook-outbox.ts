import { sql } from 'kysely';
import type { Conn } from '../connection.js';

/** One event for one webhook, queued by the write that made the change (docs/webhooks.md, "Delivery"). */
export interface OutboxRow {
  /** The delivery's id. */
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** The signed body, `{id, type, timestamp, data}` as JSON text. */
  payload: string;
  /** When the change was made: the row's `created_at`, and due at once. */
  at: string;
}

/**
 * Queues deliveries in the caller's transaction, as `pending` rows due now. Only hooks that are
 * still active when the row is written get one: the caller's list of hooks may be a few seconds
 * old, a switched-off hook must not receive the event.
 */
export async function insertOutbox(conn: Conn, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  // `values` names its columns column1…column6 on both databases.
  const values = sql.join(rows.map((r) => sql`(${r.id}, ${r.webhookId}, ${r.eventId}, ${r.eventType}, ${r.payload}, ${r.at})`));
  await sql`
    insert into webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, next_attempt_at, created_at)
    select v.column1, v.column2, v.column3, v.column4, v.column5, 'pending', 0, v.column6, v.column6
    from (values ${values}) as v
    join webhooks w on w.id = v.column2
    where w.active = 1`.execute(conn.db);
}

/**
 * The same insert as a sub-statement of the one-statement PostgreSQL writes: the JSON list of
 * rows is parameter `param`, and a row is written only when `source` (the CTE of the written
 * document) has a row.
 */
export const postgresOutboxCte = (source: string, param: string) => `outbox as (
  insert into webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, next_attempt_at, created_at)
  select r->>'id', w.id, r->>'eventId', r->>'eventType', r->>'payload', 'pending', 0, r->>'at', r->>'at'
  from ${source} cross join jsonb_array_elements(${param}::jsonb) r
  join webhooks w on w.id = r->>'webhookId' and w.active = 1
)`;
