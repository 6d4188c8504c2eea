import type { Conn } from '../connection.js';
import { toStoredSchedule, type StoredSchedule } from './schedules-store.js';

/**
 * The schedule runner's statements (docs/schedules.md, "Running"), as the webhook delivery
 * worker's (webhook-claims.ts): a due row is claimed by one `UPDATE … RETURNING` that sets
 * `claimed_until`, so exactly one node runs it, and its outcome is written only while that claim
 * still holds.
 */

/**
 * Claims up to `limit` due schedules: `pending`, `at <= now`, and no live claim (none, or one
 * that ran out: the node running it died). On PostgreSQL the rows are picked `FOR UPDATE SKIP
 * LOCKED`, so nodes claiming at once take different rows without waiting; SQLite runs one writer
 * at a time, and the conditions are checked again by the update itself.
 */
export async function claimDueSchedules(conn: Conn, q: { now: string; claimUntil: string; limit: number }): Promise<StoredSchedule[]> {
  let due = conn.db
    .selectFrom('schedules')
    .select('schedules.id')
    .where('status', '=', 'pending')
    .where('at', '<=', q.now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', q.now)]))
    .orderBy('status')
    .orderBy('at')
    .limit(q.limit);
  if (conn.dialect.supportsForUpdate) due = due.forUpdate().skipLocked();
  const rows = await conn.db
    .updateTable('schedules')
    .set({ claimed_until: q.claimUntil })
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', q.now)]))
    .returningAll()
    .execute();
  return rows.map(toStoredSchedule).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * Writes a claimed schedule's outcome (`done` or `failed` with the reason), only while the claim
 * is still this node's: a node whose claim ran out and was taken over writes nothing. False then.
 */
export async function finishSchedule(
  conn: Conn,
  claim: { id: string; claimedUntil: string },
  outcome: { status: 'done' | 'failed'; error: string | null; doneAt: string },
): Promise<boolean> {
  const result = await conn.db
    .updateTable('schedules')
    .set({ status: outcome.status, error: outcome.error, done_at: outcome.doneAt, claimed_until: null })
    .where('id', '=', claim.id)
    .where('status', '=', 'pending')
    .where('claimed_until', '=', claim.claimedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The `at` of the earliest pending schedule no live claim holds (ISO), or undefined: the runner
 * sleeps until then when it comes before its next poll. One step of the `(status, at)` index.
 */
export async function nextUnclaimedAt(conn: Conn, now: string): Promise<string | undefined> {
  const row = await conn.db
    .selectFrom('schedules')
    .select('at')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('status')
    .orderBy('at')
    .limit(1)
    .executeTakeFirst();
  return row?.at;
}
