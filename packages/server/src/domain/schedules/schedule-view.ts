import type { StoredSchedule } from '../../storage/schedules/schedules-store.js';

/** A schedule as the API serves it (docs/schedules.md): no claim, absent fields left out. */
export interface ScheduleView {
  id: string;
  type: string;
  documentId: string;
  action: 'publish' | 'unpublish';
  at: string;
  status: 'pending' | 'done' | 'failed' | 'cancelled';
  error?: string;
  createdBy: string | null;
  createdAt: string;
  doneAt?: string;
}

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
