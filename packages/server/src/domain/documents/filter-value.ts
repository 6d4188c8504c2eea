import type { FieldType } from '../../config/types.js';
import { errors } from '../../errors.js';
import type { FilterValue } from './list-query.js';

/** The whole numbers a filter on an integer field may name: those a JSON number holds exactly. */
export const SAFE_INTEGER_RANGE: readonly [number, number] = [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/** What a filter value is compared with: the field's type and, for integers, the range it is stored in. */
export interface FilterTarget {
  type: FieldType;
  /** Integer columns narrower than a JSON number (`_rev` is a 32-bit column); defaults to SAFE_INTEGER_RANGE. */
  range?: readonly [number, number];
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export const badParam = (param: string, message: string) => errors.invalidInput(`${param}: ${message}`, [{ field: param, message }]);

/**
 * A filter value typed as the field is stored, so `filter[price]=10` compares numbers. Values a
 * database would read differently from the other (a fraction or 3000000000 against PostgreSQL's
 * 32-bit `integer`, `1e400` read as Infinity) are refused here, so both answer alike
 * (docs/api.md, "List queries").
 */
export function filterValue(target: FilterTarget, raw: string, param: string): FilterValue {
  switch (target.type) {
    case 'integer': {
      const [min, max] = target.range ?? SAFE_INTEGER_RANGE;
      const n = Number(raw);
      if (!INTEGER.test(raw.trim()) || n < min || n > max) throw badParam(param, `must be a whole number from ${min} to ${max}`);
      return n;
    }
    case 'number': {
      const n = Number(raw);
      if (!NUMBER.test(raw.trim()) || !Number.isFinite(n)) throw badParam(param, 'must be a finite number');
      return n;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw badParam(param, 'must be true or false');
      return raw === 'true';
    case 'datetime': {
      // Stored date-times are UTC with milliseconds; a filter value is brought to the same form.
      const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
      if (Number.isNaN(ms)) throw badParam(param, 'must be an ISO 8601 date or date-time');
      return new Date(ms).toISOString();
    }
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw badParam(param, 'must be a date (YYYY-MM-DD)');
      return raw;
    default:
      return raw;
  }
}
