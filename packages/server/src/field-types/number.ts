import type { AnyFieldDef, FieldTypeSpec, ValueContext } from './field-type-spec.js';
import { fail, studio } from './common.js';

/** The whole numbers a filter on an integer field may name: those a JSON number holds exactly. */
export const SAFE_INTEGER_RANGE: readonly [number, number] = [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function checkedNumber(whole: boolean) {
  return (field: AnyFieldDef, value: unknown, path: string, ctx: ValueContext) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(ctx, path, 'must be a number');
    if (whole && !Number.isInteger(value)) return fail(ctx, path, 'must be an integer');
    if (field.min !== undefined && value < field.min) return fail(ctx, path, `must be ≥ ${field.min}`);
    if (field.max !== undefined && value > field.max) return fail(ctx, path, `must be ≤ ${field.max}`);
    return value;
  };
}

const base = {
  options: ['min', 'max'],
  stringLike: false,
  orderable: true,
  structured: false,
  ranged: true,
  indexable: true,
  studio: studio('number', { sortable: true, column: true }),
};

export const number: FieldTypeSpec = {
  ...base,
  validate: checkedNumber(false),
  filterValue: (raw, fail) => {
    const n = Number(raw);
    if (!NUMBER.test(raw.trim()) || !Number.isFinite(n)) throw fail('must be a finite number');
    return n;
  },
  holds: (v) => typeof v === 'number' && Number.isFinite(v),
  jsonSchema: () => ({ type: 'number' }),
};

export const integer: FieldTypeSpec = {
  ...base,
  validate: checkedNumber(true),
  filterValue: (raw, fail, range) => {
    const [min, max] = range ?? SAFE_INTEGER_RANGE;
    const n = Number(raw);
    if (!INTEGER.test(raw.trim()) || n < min || n > max) throw fail(`must be a whole number from ${min} to ${max}`);
    return n;
  },
  holds: (v, range) => {
    const [min, max] = range ?? SAFE_INTEGER_RANGE;
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  },
  // TypeScript has only `number`; JSON Schema can say more.
  jsonSchema: () => ({ type: 'integer' }),
  studio: { ...base.studio, step: 1 },
};

export const boolean: FieldTypeSpec = {
  ...base,
  options: [],
  ranged: false,
  validate: (_f, value, path, ctx) => (typeof value !== 'boolean' ? fail(ctx, path, 'must be true or false') : value),
  filterValue: (raw, fail) => {
    if (raw !== 'true' && raw !== 'false') throw fail('must be true or false');
    return raw === 'true';
  },
  holds: (v) => typeof v === 'boolean',
  jsonSchema: () => ({ type: 'boolean' }),
  studio: studio('boolean', { sortable: true }),
};
