/**
 * The instants schedules take (docs/schedules.md): an RFC 3339 date-time (§5.6) with its offset
 * (`Z` or `±hh:mm`), since a local time without one names a different moment on every server.
 * Fractions past milliseconds are dropped. Answers the instant in UTC (`toISOString`), which is
 * how rows are stored, so stored instants compare as text; undefined when `raw` is not one.
 */
export function parseInstant(raw: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})$/.exec(raw);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac = '', offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (!/^[Zz]$/.test(offset) && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4, 6)) > 59)) return undefined;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${frac.padEnd(3, '0').slice(0, 3)}${offset.toUpperCase()}`);
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  // Offsets can carry a year-0000 or year-9999 instant past four digits; stored text must compare.
  return /^\d{4}-/.test(iso) ? iso : undefined;
}

/** `at` of a new schedule: a date-time (as above) later than `now`; else the reason it is refused. */
export function scheduleInstant(raw: string, now: Date): { at: string } | { error: string } {
  const at = parseInstant(raw);
  if (at === undefined) return { error: 'must be an RFC 3339 date-time with a time zone offset, such as 2030-01-31T09:00:00Z' };
  if (Date.parse(at) <= now.getTime()) return { error: 'must be in the future' };
  return { at };
}
