import type { Conn } from '../connection.js';
import { newestFirstPage } from '../newest-first-page.js';
import type { WebhooksTable } from './webhook-tables.js';

export interface StoredWebhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  types: string[];
  active: boolean;
  /** Sealed by the secret box; only the delivery worker and rotate ever open it. */
  secretEnc: string;
  consecutiveFailures: number;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

function toWebhook(r: WebhooksTable): StoredWebhook {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    types: JSON.parse(r.types) as string[],
    active: Boolean(r.active),
    secretEnc: r.secret_enc,
    consecutiveFailures: Number(r.consecutive_failures),
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
  };
}

export async function insertWebhook(conn: Conn, w: StoredWebhook): Promise<void> {
  await conn.db
    .insertInto('webhooks')
    .values({
      id: w.id,
      name: w.name,
      url: w.url,
      events: JSON.stringify(w.events),
      types: JSON.stringify(w.types),
      active: w.active ? 1 : 0,
      secret_enc: w.secretEnc,
      consecutive_failures: w.consecutiveFailures,
      disabled_at: w.disabledAt,
      disabled_reason: w.disabledReason,
      created_at: w.createdAt,
      updated_at: w.updatedAt,
      created_by: w.createdBy,
    })
    .execute();
}

export async function findWebhook(conn: Conn, id: string): Promise<StoredWebhook | undefined> {
  const row = await conn.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toWebhook(row) : undefined;
}

/** Newest first, as the other management lists. */
export function listWebhooks(conn: Conn, limit: number, offset: number): Promise<{ rows: StoredWebhook[]; total: number }> {
  return newestFirstPage(conn, 'webhooks', limit, offset, toWebhook);
}

export interface WebhookChanges {
  name: string;
  url: string;
  events: string[];
  types: string[];
  active: boolean;
  /** Set when the hook is switched back on: the failure count and the reason it was switched off go. */
  reactivated: boolean;
  updatedAt: string;
}

/** False when the webhook is gone. */
export async function updateWebhook(conn: Conn, id: string, c: WebhookChanges): Promise<boolean> {
  const result = await conn.db
    .updateTable('webhooks')
    .set({
      name: c.name,
      url: c.url,
      events: JSON.stringify(c.events),
      types: JSON.stringify(c.types),
      active: c.active ? 1 : 0,
      updated_at: c.updatedAt,
      ...(c.reactivated ? { consecutive_failures: 0, disabled_at: null, disabled_reason: null } : {}),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceWebhookSecret(conn: Conn, id: string, secretEnc: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('webhooks')
    .set({ secret_enc: secretEnc, updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Its deliveries go with it (foreign key, cascade). */
export async function deleteWebhook(conn: Conn, id: string): Promise<boolean> {
  const result = await conn.db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** What the outbox needs of each active webhook: which events and document types it takes. */
export interface ActiveWebhook {
  id: string;
  events: string[];
  types: string[];
}

export async function listActiveWebhooks(conn: Conn): Promise<ActiveWebhook[]> {
  const rows = await conn.db.selectFrom('webhooks').select(['id', 'events', 'types']).where('active', '=', 1).execute();
  return rows.map((r) => ({ id: r.id, events: JSON.parse(r.events) as string[], types: JSON.parse(r.types) as string[] }));
}
