import type { FieldTypeSpec } from './field-type-spec.js';
import { fail, stringScalar, studio } from './common.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export const date: FieldTypeSpec = stringScalar({
  validate: (_f, value, path, ctx) => {
    const m = typeof value === 'string' ? DATE.exec(value) : null;
    if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return fail(ctx, path, 'must be a date (YYYY-MM-DD)');
    return value;
  },
  filterValue: (raw, fail) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw fail('must be a date (YYYY-MM-DD)');
    return raw;
  },
  jsonSchema: () => ({ type: 'string', format: 'date' }),
  studio: studio('string', { sortable: true, column: true, input: 'date', display: 'date' }),
});

export const datetime: FieldTypeSpec = stringScalar({
  validate: (_f, value, path, ctx) => {
    if (typeof value !== 'string' || !DATETIME.test(value) || Number.isNaN(Date.parse(value)))
      return fail(ctx, path, 'must be an ISO 8601 date-time with a time zone');
    // Stored as UTC with milliseconds so stored values compare and sort as text.
    return new Date(value).toISOString();
  },
  filterValue: (raw, fail) => {
    // Stored date-times are UTC with milliseconds; a filter value is brought to the same form.
    const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
    if (Number.isNaN(ms)) throw fail('must be an ISO 8601 date or date-time');
    return new Date(ms).toISOString();
  },
  jsonSchema: () => ({ type: 'string', format: 'date-time' }),
  studio: studio('datetime', { sortable: true, column: true, display: 'datetime' }),
});

function isRealDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
