import { wrapped } from './field-wrapper';

/** `2026-11-24T21:03:00.000Z` → the `datetime-local` text in the browser's zone. */
function toLocalInput(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `datetime`: picked in local time, stored as an ISO instant (UTC). */
export const DatetimeInput = wrapped((p, control) => (
  <input
    {...control}
    type="datetime-local"
    value={toLocalInput(p.value)}
    disabled={p.disabled}
    onChange={(e) => p.onChange(e.target.value ? new Date(e.target.value).toISOString() : undefined)}
  />
));
