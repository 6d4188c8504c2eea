/** A moment from the server (ISO text) in the browser's locale and zone; none is a dash. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A calendar day from the server (`2026-11-27`, a `date` field) in the browser's locale. A day
 * has no zone: it is formatted as that day in UTC, so no zone west of Greenwich shows the day
 * before. Text that is not such a day is shown as it is.
 */
export function day(text: string | null | undefined): string {
  if (!text) return '—';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date.toLocaleDateString(undefined, { timeZone: 'UTC' }) : text;
}
