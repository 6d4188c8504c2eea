/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the documents of one configured type: what
 * a field stores, as docs/api.md ("Schemas") describes it. It is the OpenAPI component of the
 * type and the `jsonSchema` of `GET /config/schemas`, which `vellum types` prints as TypeScript
 * (packages/cli/src/types/generate-types.ts), so the two agree field by field. Constraints
 * (`maxLength`, `min`, ...) are left out: the server's validator is what enforces them. Each
 * field's shape is its type's (field-types/).
 */
import { fieldJsonSchema, objectJsonSchema as objectOf, type JsonSchema } from '../../field-types/index.js';
import type { CompiledSchema } from './schema-registry.js';

export { fieldJsonSchema, type JsonSchema };

/** The system fields every served document carries (docs/api.md, "Documents"); `_type` is pinned per type. */
export function systemFields(typeName?: string): { properties: Record<string, JsonSchema>; required: string[] } {
  return {
    properties: {
      _id: { type: 'string' },
      _type: typeName === undefined ? { type: 'string' } : { const: typeName },
      _status: { enum: ['draft', 'published', 'archived'] },
      _rev: { type: 'integer' },
      _createdAt: { type: 'string', format: 'date-time' },
      _updatedAt: { type: 'string', format: 'date-time' },
      // A user id, `token:<id>` for an API token, or null (a write of the system itself).
      _createdBy: { type: ['string', 'null'] },
      _updatedBy: { type: ['string', 'null'] },
    },
    required: ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', '_createdBy', '_updatedBy'],
  };
}

/** A served document of this type: the system fields, then the schema's own fields. */
export function documentJsonSchema(schema: CompiledSchema): JsonSchema {
  const system = systemFields(schema.name);
  const own = objectOf(schema.fields);
  // A localized field (docs/localization.md) is served per locale: `x-vellum-localized` tells
  // `vellum types` to give it `Localized<T>` in the every-locale (`locale=*`) shape.
  for (const f of schema.localized) {
    const props = own.properties as Record<string, JsonSchema>;
    props[f.name] = { ...props[f.name], 'x-vellum-localized': true };
  }
  return {
    type: 'object',
    title: schema.title,
    ...(schema.singleton ? { description: 'A singleton: the type has one document' } : {}),
    properties: { ...system.properties, ...(own.properties as Record<string, JsonSchema>) },
    required: [...system.required, ...((own.required as string[] | undefined) ?? [])],
  };
}

/** What a client sends to create or replace one: the schema's own fields, without the system ones. */
export function documentInputJsonSchema(schema: CompiledSchema): JsonSchema {
  return { title: `${schema.title} (input)`, ...objectOf(schema.fields) };
}
