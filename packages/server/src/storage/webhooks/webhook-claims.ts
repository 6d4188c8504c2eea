import type { Conn, TransactionSource } from '../connection.js';

/**
 * The delivery worker's statements (docs/webhooks.md, "Delivery"): claiming due deliveries so
 * exactly one node attempts each, recording an attempt's outcome only while the claim still
 * holds, the per-hook failure run, and deleting old finished rows.
 */

/** A claimed delivery with what the attempt needs of its webhook. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  /** This attempt's number (1 for the first), already counted in the row. */
  attempts: number;
  /** The claim's token: the outcome is recorded only while the row still holds this value. */
  claimedUntil: string;
  url: string;
  /** Sealed by the secret box. */
  secretEnc: string;
}

/**
 * Moves up to `limit` due deliveries of active webhooks to `delivering`, counting the attempt,
 * and answers them. Due: `pending` or `failed` whose `next_attempt_at` has come, or `delivering`
 * whose claim ran out (the node making the attempt died). One UPDATE … RETURNING per kind, each
 * atomic: on PostgreSQL the rows are picked `FOR UPDATE SKIP LOCKED`, so nodes claiming at once
 * take different rows without waiting on each other; SQLite runs one writer at a time.
 */
export async function claimDueDeliveries(conn: Conn, q: { now: string; claimUntil: string; limit: number }): Promise<ClaimedDelivery[]> {
  // Each kind of due row is picked by its own range of the (status, next_attempt_at) index, oldest
  // first, so a claim reads about `limit` index entries however long the queue is. The pick names
  // no join: with one (to skip switched-off hooks) PostgreSQL, before it has statistics on a fresh
  // queue, sorted every due row to find the oldest few. Switched-off hooks (few, usually none) are
  // left out by id instead, and the update checks `active` again for a hook switched off meanwhile.
  const inactive = (await conn.db.selectFrom('webhooks').select('id').where('active', '=', 0).execute()).map((w) => w.id);
  const claimed: ClaimedRow[] = [];
  for (const kind of DUE_KINDS) {
    const remaining = q.limit - claimed.length;
    if (remaining <= 0) break;
    let due = conn.db
      .selectFrom('webhook_deliveries')
      .select('webhook_deliveries.id')
      .where('status', '=', kind.status)
      .where(kind.status === 'delivering' ? 'claimed_until' : 'next_attempt_at', kind.status === 'delivering' ? '<' : '<=', q.now)
      .orderBy('status')
      .orderBy('next_attempt_at')
      .limit(remaining);
    if (inactive.length > 0) due = due.where('webhook_id', 'not in', inactive);
    if (conn.dialect.supportsForUpdate) due = due.forUpdate().skipLocked();
    const rows = await conn.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'delivering', claimed_until: q.claimUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .where('webhook_id', 'in', (eb) => eb.selectFrom('webhooks').select('webhooks.id').where('active', '=', 1))
      .returning(['id', 'webhook_id', 'event_id', 'event_type', 'payload', 'attempts', 'claimed_until'])
      .execute();
    claimed.push(...rows);
  }
  if (claimed.length === 0) return [];
  // RETURNING sees only the updated table; the hooks' URLs and secrets come in one more read.
  const hookIds = [...new Set(claimed.map((c) => c.webhook_id))];
  const hooks = await conn.db.selectFrom('webhooks').select(['id', 'url', 'secret_enc']).where('id', 'in', hookIds).execute();
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return claimed.flatMap((c) => {
    const hook = byId.get(c.webhook_id);
    // Deleted between the two statements: its deliveries went with it.
    if (!hook) return [];
    return [
      {
        id: c.id,
        webhookId: c.webhook_id,
        eventId: c.event_id,
        eventType: c.event_type,
        payload: c.payload,
        attempts: Number(c.attempts),
        claimedUntil: q.claimUntil,
        url: hook.url,
        secretEnc: hook.secret_enc,
      },
    ];
  });
}

/** What is due: new rows, retries whose time came, and attempts whose node died (their claim ran out). */
const DUE_KINDS = [{ status: 'pending' }, { status: 'failed' }, { status: 'delivering' }] as const;

interface ClaimedRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  attempts: number | string;
  claimed_until: string | null;
}

export interface AttemptRecord {
  status: 'succeeded' | 'failed' | 'dead';
  nextAttemptAt: string | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  deliveredAt: string | null;
}

/**
 * Records an attempt's outcome, only if the row is still ours (same claim, same attempt): a node
 * whose claim ran out and was taken over must not overwrite the newer attempt. False when not.
 */
export async function recordAttempt(
  conn: Conn,
  claim: Pick<ClaimedDelivery, 'id' | 'attempts' | 'claimedUntil'>,
  r: AttemptRecord,
): Promise<boolean> {
  const result = await conn.db
    .updateTable('webhook_deliveries')
    .set({
      status: r.status,
      next_attempt_at: r.nextAttemptAt,
      claimed_until: null,
      last_status_code: r.statusCode,
      last_duration_ms: r.durationMs,
      last_error: r.error,
      delivered_at: r.deliveredAt,
    })
    .where('id', '=', claim.id)
    .where('status', '=', 'delivering')
    .where('claimed_until', '=', claim.claimedUntil)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records the attempt (while the claim holds) and moves the hook's failure run: back to 0 after a
 * delivery, one more after a failure unless `countFailure` is false; answers the run's length, or
 * `recorded: false` when the claim was lost. On SQLite it joins the writes of the same moment in one commit
 * (write-batcher.ts): attempts finish in bursts, and a commit each would cost more than the
 * writes. Elsewhere the statements go to the pool as they are, without BEGIN/COMMIT round trips.
 */
export async function finishAttempt(
  database: TransactionSource,
  claim: Pick<ClaimedDelivery, 'id' | 'webhookId' | 'attempts' | 'claimedUntil'>,
  r: AttemptRecord,
  countFailure = true,
): Promise<{ recorded: false } | { recorded: true; failures: number }> {
  const write = async (conn: Conn) => {
    if (!(await recordAttempt(conn, claim, r))) return { recorded: false as const };
    if (r.status === 'succeeded') {
      await resetWebhookFailures(conn, claim.webhookId);
      return { recorded: true as const, failures: 0 };
    }
    if (!countFailure) return { recorded: true as const, failures: 0 };
    return { recorded: true as const, failures: (await countWebhookFailure(conn, claim.webhookId)) ?? 0 };
  };
  return database.batcher ? database.batcher.run(write) : write(database);
}

/** A delivered attempt ends the hook's failure run (written only when there was one). */
export async function resetWebhookFailures(conn: Conn, webhookId: string): Promise<void> {
  await conn.db
    .updateTable('webhooks')
    .set({ consecutive_failures: 0 })
    .where('id', '=', webhookId)
    .where('consecutive_failures', '>', 0)
    .execute();
}

/** Counts one more failed attempt; answers the run's length, or undefined when the hook is gone. */
export async function countWebhookFailure(conn: Conn, webhookId: string): Promise<number | undefined> {
  const row = await conn.db
    .updateTable('webhooks')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('id', '=', webhookId)
    .returning('consecutive_failures')
    .executeTakeFirst();
  return row ? Number(row.consecutive_failures) : undefined;
}

/** Switches an active hook off; true when this call did (so exactly one node reports it). */
export async function disableWebhook(conn: Conn, webhookId: string, at: string, reason: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('webhooks')
    .set({ active: 0, disabled_at: at, disabled_reason: reason, updated_at: at })
    .where('id', '=', webhookId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes succeeded and dead deliveries created before `before`; answers how many. */
export async function deleteFinishedDeliveries(conn: Conn, before: string): Promise<number> {
  const result = await conn.db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['succeeded', 'dead'])
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deliveries not finished yet, on every node: pending, failed with a retry to come, or being
 * attempted (metrics: `vellum_webhook_queue_depth`). Read through the (status, next_attempt_at)
 * index; finished rows, however many, are not touched.
 */
export async function countUnfinishedDeliveries(conn: Conn): Promise<number> {
  const row = await conn.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', 'in', ['pending', 'failed', 'delivering'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
