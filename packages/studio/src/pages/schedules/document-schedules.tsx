import { Link } from 'react-router';
import type { Session } from '../../auth/session';
import { useDocumentSchedules } from '../../queries/schedules';
import { ErrorMessage } from '../../ui/error-message';
import { allows } from '../documents/schema';
import { ScheduleDialog } from './schedule-dialog';
import { CancelSchedule, mayCancel } from './schedule-parts';
import { scheduleSentence } from './schedule-time';
import './schedules.css';

/**
 * The editor's "Scheduled" panel (docs/studio.md, "Schedules"): the document's pending
 * publishes and unpublishes, each with Cancel, and the ones that failed with their reason (an
 * editor must see that a planned publish did not happen); "Schedule…" for those who may publish.
 * Done and cancelled ones are on the Schedules page.
 */
export function DocumentSchedules({ type, id, session }: { type: string; id: string; session: Session }) {
  const canPublish = allows(session, 'content:publish', type);
  const schedules = useDocumentSchedules(type, id);
  const shown = (schedules.data ?? []).filter((s) => s.status === 'pending' || s.status === 'failed');
  const pending = shown.filter((s) => s.status === 'pending');
  const failed = shown.filter((s) => s.status === 'failed');
  return (
    <section className="stack doc-schedules" aria-labelledby="doc-schedules-title">
      <h2 id="doc-schedules-title">Scheduled</h2>
      <ErrorMessage error={schedules.error} />
      {schedules.data && shown.length === 0 && <p className="muted">Nothing is scheduled.</p>}
      {pending.length > 0 && (
        <ul className="schedule-items" aria-label="Pending schedules">
          {pending.map((s) => (
            <li key={s.id}>
              <span>{scheduleSentence(s)}</span>
              {mayCancel(session, s) && <CancelSchedule schedule={s} />}
            </li>
          ))}
        </ul>
      )}
      {failed.length > 0 && (
        <ul className="schedule-items" aria-label="Failed schedules">
          {failed.map((s) => (
            <li key={s.id} className="schedule-failed">
              <span>{scheduleSentence(s)}</span>
              <span className="error">{s.error}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        {canPublish && <ScheduleDialog type={type} id={id} />}
        <Link to="/schedules">All schedules</Link>
      </div>
    </section>
  );
}
