import type { FieldTypeSpec } from './field-type-spec.js';
import { fail, isPlainObject, structured, studio } from './common.js';

/** Named nested fields, validated as a document's are (dotted error paths). */
export const object: FieldTypeSpec = structured({
  options: ['fields'],
  checkOptions: (_r, path, f, ctx) => {
    f.fields = ctx.fields(`${path}.fields`, f.fields);
  },
  validate: (field, value, path, ctx) =>
    isPlainObject(value) ? ctx.object(field.fields ?? [], value, `${path}.`) : fail(ctx, path, 'must be an object'),
  childFields: (f) => f.fields ?? [],
  resolve: (f, rest, ctx) => (rest.length === 0 ? { path: [], type: 'object', array: false } : ctx.fields(f.fields ?? [], rest)),
  search: (f, v, out) => {
    if (isPlainObject(v)) for (const child of f.fields ?? []) if (v[child.name] !== undefined) out.value(child, v[child.name]);
  },
  jsonSchema: (f, ctx) => (f.fields && f.fields.length > 0 ? ctx.object(f.fields) : { type: 'object' }),
  mapChildren: (f, map) => (f.fields ? { ...f, fields: f.fields.map((c) => map(c) as typeof c) } : f),
  studio: studio('object', { emptyValue: {} }),
});
