import { withStudioHints } from '../../field-types/index.js';
import type { SchemaRegistry } from './schema-registry.js';
import { documentJsonSchema } from './document-json-schema.js';

/**
 * `GET /config/schemas`: the registered schemas as configured (hooks and secrets never live
 * here), each field with `studio`, what the field-type table says about showing it (its control,
 * list sort and filter), so the studio keeps no copy of the table; and `jsonSchema`, a served
 * document of the type as JSON Schema (the OpenAPI component's), from which `vellum types` and
 * `vellum export`/`import` read shapes and references, so the CLI keeps none either.
 */
export function listSchemas(schemas: SchemaRegistry) {
  return schemas.list().map((s) => ({
    name: s.name,
    title: s.title,
    type: s.singleton ? 'singleton' : 'document',
    public: s.public,
    fields: s.fields.map(withStudioHints),
    jsonSchema: documentJsonSchema(s),
    // The studio's preview pane opens this template, filled by `POST …/preview` (docs/preview.md).
    ...(s.def.preview ? { preview: { url: s.def.preview.url } } : {}),
    // The studio's tabs (docs/studio.md, "Form layout"); fields carry their `group`, `hidden` and `readOnly` as configured.
    ...(s.def.groups ? { groups: s.def.groups } : {}),
  }));
}
