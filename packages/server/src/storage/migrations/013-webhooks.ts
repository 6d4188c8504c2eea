import type { Kysely, Migration } from 'kysely';

/**
 * Webhooks (docs/api.md, "Webhooks"):
 * - `webhooks`: one per subscription; `events` and `types` are JSON lists, the signing secret is
 *   sealed by the secret box (as TOTP secrets are), and `consecutive_failures`/`disabled_*` let the
 *   delivery worker switch off an endpoint that keeps failing.
 * - `webhook_deliveries`: the outbox. A row per event per webhook; the worker claims `pending` rows
 *   due by `next_attempt_at` (the status index), holding them until `claimed_until` so another node
 *   does not send them twice. Rows go with their webhook.
 */
export function webhooks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('types', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret_enc', 'text', (c) => c.notNull())
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled_at', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('webhooks_created').on('webhooks').columns(['created_at', 'id']).execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
    },
  };
}
