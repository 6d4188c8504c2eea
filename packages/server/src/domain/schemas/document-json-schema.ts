import type { FieldDef } from '../../config/types.js';
import type { CompiledSchema } from './schema-registry.js';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the documents of one configured type: what
 * a field stores, as docs/api.md ("Schemas") describes it. It agrees field by field with the
 * TypeScript `vellum types` writes (packages/cli/src/types/generate-types.ts): same property
 * names, same required list, same shapes. Constraints (`maxLength`, `min`, ...) are left out,
 * as they are there: the server's validator is what enforces them.
 */
export type JsonSchema = Record<string, unknown>;

const STRINGS = new Set(['string', 'text', 'email', 'url', 'markdown', 'richtext', 'date', 'datetime', 'image', 'file', 'reference']);

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
      _createdBy: { type: 'string' },
      _updatedBy: { type: 'string' },
    },
    required: ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt'],
  };
}

/** A served document of this type: the system fields, then the schema's own fields. */
export function documentJsonSchema(schema: CompiledSchema): JsonSchema {
  const system = systemFields(schema.name);
  const own = objectOf(schema.fields);
  return {
    type: 'object',
    title: schema.title,
    ...(schema.singleton ? { description: `${schema.title} (singleton)` } : {}),
    properties: { ...system.properties, ...(own.properties as Record<string, JsonSchema>) },
    required: [...system.required, ...((own.required as string[] | undefined) ?? [])],
  };
}

/** What a client sends to create or replace one: the schema's own fields, without the system ones. */
export function documentInputJsonSchema(schema: CompiledSchema): JsonSchema {
  return { title: `${schema.title} (input)`, ...objectOf(schema.fields) };
}

function objectOf(fields: readonly FieldDef[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of fields) {
    properties[f.name] = fieldJsonSchema(f);
    if (f.required) required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** One field's value (generate-types.ts `fieldType`, in JSON Schema). */
export function fieldJsonSchema(f: FieldDef): JsonSchema {
  const doc: JsonSchema = {};
  if (f.title && f.title !== f.name) doc.title = f.title;
  const target = f.type === 'array' && f.of?.type === 'reference' ? f.of : f.type === 'reference' ? f : undefined;
  const description = [f.description, target ? referenceNote(target.to) : undefined].filter(Boolean).join('. ');
  if (description) doc.description = description;
  return { ...valueSchema(f), ...doc };
}

function valueSchema(f: FieldDef): JsonSchema {
  if (STRINGS.has(f.type)) {
    if (f.type === 'datetime') return { type: 'string', format: 'date-time' };
    if (f.type === 'date') return { type: 'string', format: 'date' };
    return { type: 'string' };
  }
  switch (f.type) {
    case 'slug':
      return { type: 'object', properties: { current: { type: 'string' } }, required: ['current'] };
    case 'number':
      return { type: 'number' };
    case 'integer':
      // TypeScript has only `number`; JSON Schema can say more.
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'select':
      return f.options && f.options.length > 0 ? { type: 'string', enum: [...f.options] } : { type: 'string' };
    case 'geopoint':
      return { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } }, required: ['lat', 'lng'] };
    case 'array':
      return { type: 'array', items: f.of ? fieldJsonSchema(f.of as FieldDef) : {} };
    case 'object':
      return f.fields && f.fields.length > 0 ? objectOf(f.fields) : { type: 'object' };
    default:
      // json: any JSON value (`unknown` in the TypeScript).
      return {};
  }
}

function referenceNote(to: string | string[] | undefined): string {
  const names = [to ?? []].flat().join(' | ');
  return `Id of a ${names || 'document'}: \`expand\` replaces it with the document`;
}
