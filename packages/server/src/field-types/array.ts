import type { FieldDef } from '../config/types.js';
import type { AnyFieldDef, FieldTypeSpec } from './field-type-spec.js';
import { EMPTY, INVALID } from './field-type-spec.js';
import { fail, structured, studio } from './common.js';

/** An array's item definition (a blocks field's `of` is a list of block types instead). */
const itemDef = (f: AnyFieldDef): AnyFieldDef | undefined => (f.of && !Array.isArray(f.of) ? f.of : undefined);

/** A list of values of one type, `of` (a field definition without a name). */
export const array: FieldTypeSpec = structured({
  options: ['of', 'minItems', 'maxItems'],
  checkOptions: (r, path, f, ctx) => {
    const of = itemDef(f);
    if (!of || typeof of !== 'object') r.problem(`${path}.of`, 'expected a field definition (without name)');
    else f.of = ctx.field(`${path}.of`, { ...of, name: of.name ?? 'item' } as FieldDef);
  },
  validate: (field, value, path, ctx) => {
    if (!Array.isArray(value)) return fail(ctx, path, 'must be an array');
    if (field.minItems !== undefined && value.length < field.minItems) return fail(ctx, path, `must have at least ${field.minItems} items`);
    if (field.maxItems !== undefined && value.length > field.maxItems) return fail(ctx, path, `must have at most ${field.maxItems} items`);
    const of = { ...(itemDef(field) as FieldDef), name: field.name };
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
  itemOf: itemDef,
  resolve: (f, rest, ctx) => {
    const of = itemDef(f);
    if (rest.length !== 0) return undefined;
    const scalar = of !== undefined && !ctx.spec(of).structured;
    return { path: [], type: scalar ? of.type : 'array', array: scalar };
  },
  search: (f, v, out) => {
    const of = itemDef(f);
    if (Array.isArray(v) && of) for (const item of v) out.value(of, item);
  },
  jsonSchema: (f, ctx) => {
    const of = itemDef(f);
    return { type: 'array', items: of ? ctx.field(of) : {} };
  },
  mapChildren: (f, map) => {
    const of = itemDef(f);
    return of ? { ...f, of: map(of) } : f;
  },
  studio: studio('array'),
});
