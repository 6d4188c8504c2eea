const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses the spec's duration strings (`15m`, `1h`, `7d`) into milliseconds. A bare number is
 * taken as seconds, as JWT libraries do. Returns undefined for anything else so the config
 * validator can report it.
 */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(value);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS[m[2] ?? 's'];
  return ms > 0 ? ms : undefined;
}
