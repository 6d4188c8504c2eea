import type { Selectable } from 'kysely';
import type { Conn } from '../connection.js';
import type { SchedulesTable } from './schedules-table.js';

/** A stored schedule (docs/schedules.md). */
export interface StoredSchedule {
  id: string;
  type: string;
  documentId: string;
  action: 'publish' | 'unpublish';
  at: string;
  status: 'pending' | 'done' | 'failed' | 'cancelled';
  error: string | null;
  createdBy: string | null;
  createdAt: string;
  doneAt: string | null;
  claimedUntil: string | null;
}

export function toStoredSchedule(row: Selectable<SchedulesTable>): StoredSchedule {
  return {
    id: row.id,
    type: row.type,
    documentId: row.document_id,
    action: row.action as StoredSchedule['action'],
    at: row.at,
    status: row.status as StoredSchedule['status'],
    error: row.error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    doneAt: row.done_at,
    claimedUntil: row.claimed_until,
  };
}

export async function insertSchedule(conn: Conn, s: StoredSchedule): Promise<void> {
  await conn.db
    .insertInto('schedules')
    .values({
      id: s.id,
      type: s.type,
      document_id: s.documentId,
      action: s.action,
      at: s.at,
      status: s.status,
      error: s.error,
      created_by: s.createdBy,
      created_at: s.createdAt,
      done_at: s.doneAt,
      claimed_until: s.claimedUntil,
    })
    .execute();
}

export async function findSchedule(conn: Conn, id: string): Promise<StoredSchedule | undefined> {
  const row = await conn.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStoredSchedule(row) : undefined;
}

export interface ScheduleFilter {
  /** The types to list (never empty: a caller who may read none gets no query). */
  types: readonly string[];
  documentId?: string;
  status?: string;
  /** `at` from this instant, inclusive. */
  from?: string;
  /** `at` before this instant, exclusive. */
  to?: string;
  limit: number;
  offset: number;
}

/** A page of schedules ordered by `at` (then id, so a row keeps its page), with the total. */
export async function listSchedules(conn: Conn, f: ScheduleFilter): Promise<{ rows: StoredSchedule[]; total: number }> {
  let q = conn.db.selectFrom('schedules').where('type', 'in', f.types);
  if (f.documentId !== undefined) q = q.where('document_id', '=', f.documentId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  const rows = await q.selectAll().orderBy('at').orderBy('id').limit(f.limit).offset(f.offset).execute();
  const { n } = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows: rows.map(toStoredSchedule), total: Number(n) };
}

/**
 * Cancels a pending schedule no node is running (its claim absent or run out at `now`). Answers
 * the row after the attempt, or undefined when there is none: the caller tells "cancelled" from
 * "already ran" or "running now" by its status and claim.
 */
export async function cancelSchedule(conn: Conn, id: string, now: string): Promise<{ cancelled: boolean; row?: StoredSchedule }> {
  const updated = await conn.db
    .updateTable('schedules')
    .set({ status: 'cancelled', done_at: now, claimed_until: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
  if (updated) return { cancelled: true, row: toStoredSchedule(updated) };
  return { cancelled: false, row: await findSchedule(conn, id) };
}
