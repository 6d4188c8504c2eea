import type { Schedule, ScheduleStatus } from '@vellum/client';
import type { Session } from '../../auth/session';
import { useScheduleRange } from '../../queries/schedules';
import { ErrorMessage } from '../../ui/error-message';
import { CancelSchedule, mayCancel, ScheduleDocument } from './schedule-parts';
import { actionLabel, addDays, dayKey, fromDayKey, STATUS_LABELS, timeOfDay, weekStart } from './schedule-time';

const dayName = (d: Date) => d.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'short' });

/**
 * A week of schedules, Monday to Sunday in the viewer's time zone: one column per day, headed by
 * the day, each schedule under its day with its time and document (Cancel on the pending ones).
 * The week is asked for by its bounds (`from` its first midnight, `to` the next week's), all of it.
 */
export function ScheduleWeek(props: {
  status?: ScheduleStatus;
  type?: string;
  session: Session;
  /** The week's Monday (`2026-11-30`) from the address; none: this week. */
  week: string | null;
  onWeek(week: string | undefined): void;
}) {
  const { status, type, session } = props;
  const today = new Date();
  const start = weekStart(fromDayKey(props.week) ?? today);
  const end = addDays(start, 7);
  const days = Array.from({ length: 7 }, (_, i) => addDays(start, i));
  const range = useScheduleRange({ status, type, from: start.toISOString(), to: end.toISOString() });
  const byDay = new Map<string, Schedule[]>();
  for (const s of range.data?.data ?? []) {
    const key = dayKey(new Date(s.at));
    byDay.set(key, [...(byDay.get(key) ?? []), s]);
  }
  const last = addDays(start, 6);
  const span = `${start.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} – ${last.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`;
  return (
    <section aria-labelledby="schedule-week-title" className="stack">
      <div className="row schedule-week-nav">
        <h2 id="schedule-week-title" aria-live="polite">
          Week of {span}
        </h2>
        <nav className="row" aria-label="Weeks">
          <button type="button" onClick={() => props.onWeek(dayKey(addDays(start, -7)))}>
            Previous week
          </button>
          <button type="button" onClick={() => props.onWeek(undefined)}>
            Today
          </button>
          <button type="button" onClick={() => props.onWeek(dayKey(end))}>
            Next week
          </button>
        </nav>
      </div>
      <ErrorMessage error={range.error} />
      {range.isPending && <p className="muted">Loading…</p>}
      <div className="schedule-week">
        {days.map((d) => {
          const key = dayKey(d);
          const isToday = key === dayKey(today);
          const items = byDay.get(key) ?? [];
          return (
            <section key={key} className={isToday ? 'schedule-day today' : 'schedule-day'} aria-labelledby={`day-${key}`}>
              <h3 id={`day-${key}`} aria-current={isToday ? 'date' : undefined}>
                {dayName(d)}
                {isToday && <span className="muted"> (today)</span>}
              </h3>
              {items.length === 0 ? (
                <p className="muted">Nothing scheduled</p>
              ) : (
                <ul className="schedule-items">
                  {items.map((s) => (
                    <li key={s.id}>
                      <span>
                        <time dateTime={s.at}>{timeOfDay(s.at)}</time> {actionLabel(s)}
                      </span>
                      <ScheduleDocument schedule={s} />
                      {s.status !== 'pending' && <span className={`badge schedule-${s.status}`}>{STATUS_LABELS[s.status]}</span>}
                      {s.error && <span className="error">{s.error}</span>}
                      {mayCancel(session, s) && <CancelSchedule schedule={s} named />}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
