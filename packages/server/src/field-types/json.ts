import type { FieldTypeSpec } from './field-type-spec.js';
import { structured, studio } from './common.js';

/** Any JSON value, stored as given (`unknown` in the TypeScript of `vellum types`). */
export const json: FieldTypeSpec = structured({
  validate: (_f, value) => value,
  jsonSchema: () => ({}),
  studio: studio('json'),
});
