import type { Schedule } from '@vellum/client';
import { Link } from 'react-router';
import type { Session } from '../../auth/session';
import { documentTitle } from '../../queries/document-title';
import { useCancelSchedule } from '../../queries/schedules';
import { useDocument } from '../../queries/use-document-queries';
import { ErrorMessage } from '../../ui/error-message';
import { allows } from '../documents/schema';
import { actionLabel, shortMoment } from './schedule-time';

/** Cancelling needs the publish permission on the schedule's type (docs/schedules.md, "Routes"). */
export const mayCancel = (session: Session, s: Schedule): boolean => s.status === 'pending' && allows(session, 'content:publish', s.type);

/**
 * "Cancel" on a pending schedule, named for what it cancels so that a list of them reads apart.
 * Nothing is lost by cancelling (the row stays, cancelled), so it asks no question first. A 409
 * (it ran meanwhile) is shown beside it.
 */
export function CancelSchedule({ schedule, named }: { schedule: Schedule; named?: boolean }) {
  const cancel = useCancelSchedule();
  const title = useScheduleTitle(schedule, !!named);
  const name = `Cancel ${actionLabel(schedule).toLowerCase()}${named ? ` of ${title}` : ''} on ${shortMoment(schedule.at)}`;
  return (
    <span className="schedule-cancel">
      <button type="button" aria-label={name} disabled={cancel.isPending} onClick={() => cancel.mutate(schedule.id)}>
        Cancel
      </button>
      <ErrorMessage error={cancel.error} />
    </span>
  );
}

/** The scheduled document by its title (read through `/collections`), linking to its editor; its id until then. */
export function ScheduleDocument({ schedule }: { schedule: Schedule }) {
  return (
    <Link to={`/documents/${encodeURIComponent(schedule.type)}/${encodeURIComponent(schedule.documentId)}`}>
      {useScheduleTitle(schedule)}
    </Link>
  );
}

/** The scheduled document's title, read once for every place that names it (the cache is shared); its id until then. */
function useScheduleTitle(schedule: Schedule, enabled = true): string {
  const doc = useDocument(schedule.type, schedule.documentId, { retry: false, enabled });
  return doc.data ? documentTitle(doc.data) : schedule.documentId;
}

/** Who made it: "You", an API token, or the user's id (the studio reads no user list for it). */
export function createdByText(session: Session, createdBy: string | null): string {
  if (!createdBy) return '—';
  if (createdBy === session.user?.id) return 'You';
  if (createdBy.startsWith('token:')) return `API token ${createdBy.slice('token:'.length)}`;
  return createdBy;
}
