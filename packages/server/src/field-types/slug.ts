import type { FieldTypeSpec } from './field-type-spec.js';
import { EMPTY } from './field-type-spec.js';
import { fail, isPlainObject, stringScalar, studio } from './common.js';
import { slugify } from './slugify.js';

/** `{current}`, generated from `source` on the write when empty, unique per type (docs/api.md, "Schemas"). */
export const slug: FieldTypeSpec = stringScalar({
  options: ['source', 'maxLength'],
  validate: (field, value, path, ctx) => {
    const raw = typeof value === 'string' ? value : isPlainObject(value) && typeof value.current === 'string' ? value.current : undefined;
    if (raw === undefined || (isPlainObject(value) && Object.keys(value).some((k) => k !== 'current'))) {
      return fail(ctx, path, 'must be a string or {current: string}');
    }
    const current = slugify(raw, field.maxLength, ctx.locale);
    return current === '' ? EMPTY : { current };
  },
  generatedWhenEmpty: true,
  naturalOrder: true,
  alwaysIndexed: true,
  alwaysUnique: true,
  scalarPath: ['current'],
  resolve: (_f, rest) =>
    rest.length === 0 || (rest.length === 1 && rest[0] === 'current') ? { path: ['current'], type: 'slug', array: false } : undefined,
  jsonSchema: () => ({ type: 'object', properties: { current: { type: 'string' } }, required: ['current'] }),
  studio: studio('slug'),
});
