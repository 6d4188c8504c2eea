import { errors } from '../../errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_OFFSET = 2_147_483_647;

/** `limit`/`offset` from a query string: digits only; limit above 100 is clamped (docs/api.md, "List queries"). */
export function parsePaging(limitRaw: unknown, offsetRaw: unknown): { limit: number; offset: number } {
  return {
    limit: Math.min(parseCount('limit', limitRaw, DEFAULT_LIMIT), MAX_LIMIT),
    offset: parseCount('offset', offsetRaw, 0),
  };
}

function parseCount(name: string, raw: unknown, def: number): number {
  if (raw === undefined || raw === '') return def;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= MAX_OFFSET) return raw;
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) > MAX_OFFSET) {
    throw errors.invalidInput(`${name} must be a whole number from 0`, [{ field: name, message: 'must be a whole number from 0' }]);
  }
  return Number(raw);
}
