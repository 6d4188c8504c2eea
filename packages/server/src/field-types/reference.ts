import type { FieldTypeSpec } from './field-type-spec.js';
import { fail, ID_PATTERN, stringScalar, studio, targetsOf } from './common.js';

/**
 * The extension keyword of a reference's JSON Schema naming the types it may point at
 * (docs/api.md, "OpenAPI"): what `vellum types` and `vellum export`/`import` read.
 */
const REFERENCE_KEYWORD = 'x-vellum-reference';

/** The id of a document of the `to` type(s); `expand` replaces it with the document. */
export const reference: FieldTypeSpec = stringScalar({
  options: ['to'],
  checkOptions: (r, path, f, ctx) => {
    const targets = Array.isArray(f.to) ? f.to : [f.to];
    if (targets.length === 0 || targets.some((t) => typeof t !== 'string')) {
      r.problem(`${path}.to`, 'expected a schema name or an array of schema names');
    } else {
      for (const t of targets) if (!ctx.schemas.has(t as string)) r.problem(`${path}.to`, `references a missing schema "${t}"`);
    }
  },
  validate: (field, value, path, ctx) => {
    if (typeof value !== 'string' || !ID_PATTERN.test(value)) return fail(ctx, path, 'must be a document id');
    ctx.references.push({ path, id: value, to: targetsOf(field) });
    return value;
  },
  alwaysIndexed: true,
  expands: 'documents',
  jsonSchema: (f) => ({ type: 'string', [REFERENCE_KEYWORD]: [f.to ?? []].flat() }),
  studio: studio('reference', { listFilter: 'documents', listControl: 'referenceList' }),
});
