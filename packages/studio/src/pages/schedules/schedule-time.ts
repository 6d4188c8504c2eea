import type { Schedule, ScheduleStatus } from '@vellum/client';

export const STATUSES: ScheduleStatus[] = ['pending', 'done', 'failed', 'cancelled'];
export const STATUS_LABELS: Record<ScheduleStatus, string> = { pending: 'Pending', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' };

/** The browser's time zone (`Europe/Paris`): the zone the picker's times are in and instants are shown in. */
export const zoneName = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/** A local moment as `<input type=datetime-local>` holds it (`2026-12-01T09:00`). */
export function localInputValue(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A datetime-local value read in the browser's zone, as an RFC 3339 date-time with that zone's
 * offset at that moment (`2026-12-01T09:00:00+01:00`): the server takes no local time without an
 * offset (docs/schedules.md, "Routes"). A time the zone skips (the hour clocks go forward) is
 * moved on as the browser moves it. Anything that is not such a value: undefined.
 */
export function offsetInstant(value: string): { text: string; date: Date } | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  // Without an offset, a date-time string is local time (ECMA-262, Date Time String Format).
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const local = `${localInputValue(date)}:${pad(date.getSeconds())}`;
  return { text: `${local}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`, date };
}

/** An instant in the viewer's locale and zone, short: `Tue, 1 Dec, 09:00` (the year when it is not this one). */
export function shortMoment(iso: string): string {
  const d = new Date(iso);
  const year = d.getFullYear() === new Date().getFullYear() ? undefined : 'numeric';
  return d.toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year, hour: '2-digit', minute: '2-digit' });
}

/** The time of day alone, for the week view (its day is the column's). */
export const timeOfDay = (iso: string): string => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

const VERB = { publish: 'Publish', unpublish: 'Unpublish' } as const;

/** What a schedule does, said for its state: "Publishes on Tue, 1 Dec, 09:00 (Europe/Paris)". */
export function scheduleSentence(s: Schedule): string {
  const at = `${shortMoment(s.at)} (${zoneName()})`;
  switch (s.status) {
    case 'pending':
      return `${VERB[s.action]}es on ${at}`;
    case 'done':
      return `${VERB[s.action]}ed on ${at}`;
    case 'failed':
      return `${VERB[s.action]} on ${at} failed`;
    case 'cancelled':
      return `${VERB[s.action]} on ${at} cancelled`;
  }
}

export const actionLabel = (s: Pick<Schedule, 'action'>): string => VERB[s.action];

/** Midnight starting the Monday of `d`'s week in the browser's zone (weeks run Monday to Sunday, ISO 8601). */
export function weekStart(d: Date): Date {
  const start = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  return start;
}

/** Local midnight `days` after `d`'s (setDate keeps midnight across a change of clocks). */
export function addDays(d: Date, days: number): Date {
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  next.setDate(next.getDate() + days);
  return next;
}

/** A local day as text (`2026-11-30`): the week's key in the address. */
export const dayKey = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Local midnight of a `dayKey`, or undefined for other text. */
export function fromDayKey(text: string | null): Date | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const d = new Date(`${text}T00:00:00`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
