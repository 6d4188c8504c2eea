import type { FieldDef } from '../config/types.js';
import type { FieldTypeSpec } from './field-type-spec.js';
import { EMPTY, INVALID } from './field-type-spec.js';
import { fail, structured, studio } from './common.js';

/** A list of values of one type, `of` (a field definition without a name). */
export const array: FieldTypeSpec = structured({
  options: ['of', 'minItems', 'maxItems'],
  checkOptions: (r, path, f, ctx) => {
    if (!f.of || typeof f.of !== 'object') r.problem(`${path}.of`, 'expected a field definition (without name)');
    else f.of = ctx.field(`${path}.of`, { ...f.of, name: f.of.name ?? 'item' } as FieldDef);
  },
  validate: (field, value, path, ctx) => {
    if (!Array.isArray(value)) return fail(ctx, path, 'must be an array');
    if (field.minItems !== undefined && value.length < field.minItems) return fail(ctx, path, `must have at least ${field.minItems} items`);
    if (field.maxItems !== undefined && value.length > field.maxItems) return fail(ctx, path, `must have at most ${field.maxItems} items`);
    const of = { ...(field.of as FieldDef), name: field.name };
    const out: unknown[] = [];
    value.forEach((item, i) => {
      if (item === null || item === undefined) {
        fail(ctx, `${path}.${i}`, 'must not be null');
        return;
      }
      const r = ctx.value(of, item, `${path}.${i}`);
      if (r === EMPTY) fail(ctx, `${path}.${i}`, 'must not be empty');
      else if (r !== INVALID) out.push(r);
    });
    return out;
  },
  itemOf: (f) => f.of,
  resolve: (f, rest, ctx) => {
    if (rest.length !== 0) return undefined;
    const scalar = f.of !== undefined && !ctx.spec(f.of).structured;
    return { path: [], type: scalar ? f.of!.type : 'array', array: scalar };
  },
  search: (f, v, out) => {
    if (Array.isArray(v) && f.of) for (const item of v) out.value(f.of, item);
  },
  jsonSchema: (f, ctx) => ({ type: 'array', items: f.of ? ctx.field(f.of) : {} }),
  mapChildren: (f, map) => (f.of ? { ...f, of: map(f.of) } : f),
  studio: studio('array'),
});
