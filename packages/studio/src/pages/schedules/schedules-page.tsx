import type { ScheduleStatus } from '@vellum/client';
import { useSearchParams } from 'react-router';
import { useSession } from '../../auth/session';
import { useSchemas } from '../../queries/config';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';
import { allows } from '../documents/schema';
import { ScheduleList } from './schedule-list';
import { STATUS_LABELS, STATUSES, zoneName } from './schedule-time';
import { ScheduleWeek } from './schedule-week';
import './schedules.css';

/**
 * What is scheduled (`GET /schedules`, docs/schedules.md): a list with a status and a type filter,
 * or a week of them in the viewer's time zone. The server answers with the types the user may
 * read; the state is in the address, as the document list's is. Pending is what is shown first.
 */
export default function SchedulesPage() {
  usePageTitle('Schedules');
  const session = useSession();
  const schemas = useSchemas();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'week' ? 'week' : 'list';
  const rawStatus = params.get('status');
  const status =
    rawStatus === 'all' ? undefined : STATUSES.includes(rawStatus as ScheduleStatus) ? (rawStatus as ScheduleStatus) : 'pending';
  const type = params.get('type') || undefined;
  const readable = (schemas.data ?? []).filter((s) => allows(session, 'content:read', s.name));

  /** Changes some of the address's values; a new filter starts the list at its first page. */
  const change = (next: Record<string, string | undefined>) => {
    const out = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next))
      if (v === undefined) out.delete(k);
      else out.set(k, v);
    if (!('offset' in next)) out.delete('offset');
    setParams(out);
  };
  return (
    <>
      <h1>Schedules</h1>
      <p className="muted">Planned publishes and unpublishes. Times are in your time zone, {zoneName()}.</p>
      <div className="schedule-toolbar">
        <div role="group" aria-label="View" className="row">
          <button type="button" aria-pressed={view === 'list'} onClick={() => change({ view: undefined, week: undefined })}>
            List
          </button>
          <button type="button" aria-pressed={view === 'week'} onClick={() => change({ view: 'week' })}>
            Week
          </button>
        </div>
        <label>
          Status
          <select value={rawStatus === 'all' ? 'all' : (status ?? 'all')} onChange={(e) => change({ status: e.target.value })}>
            <option value="all">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={type ?? ''} onChange={(e) => change({ type: e.target.value || undefined })}>
            <option value="">All types</option>
            {readable.map((s) => (
              <option key={s.name} value={s.name}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={schemas.error} />
      {view === 'list' ? (
        <ScheduleList
          status={status}
          type={type}
          session={session}
          offset={Number(params.get('offset')) || 0}
          onOffset={(offset) => change({ offset: offset ? String(offset) : undefined })}
        />
      ) : (
        <ScheduleWeek status={status} type={type} session={session} week={params.get('week')} onWeek={(week) => change({ week })} />
      )}
    </>
  );
}
