import type { StoredSchedule } from '../../storage/schedules/schedules-store.js';

/** A schedule as the API serves it (docs/schedules.md): no claim, absent fields left out. */
export type ScheduleView = Omit<StoredSchedule, 'error' | 'doneAt' | 'claimedUntil'> & { error?: string; doneAt?: string };

export function toScheduleView(s: StoredSchedule): ScheduleView {
  return {
    id: s.id,
    type: s.type,
    documentId: s.documentId,
    action: s.action,
    at: s.at,
    status: s.status,
    ...(s.error !== null ? { error: s.error } : {}),
    createdBy: s.createdBy,
    createdAt: s.createdAt,
    ...(s.doneAt !== null ? { doneAt: s.doneAt } : {}),
  };
}
