import type { FieldDef, FieldType } from '../config/types.js';
import type { AnyFieldDef, FieldTypeSpec, FilterOperator, JsonSchema, ResolvedBelow, StudioHints } from './field-type-spec.js';
import { array } from './array.js';
import { blocks } from './blocks.js';
import { date, datetime } from './date.js';
import { geopoint } from './geopoint.js';
import { json } from './json.js';
import { file, image } from './media.js';
import { boolean, integer, number } from './number.js';
import { object } from './object.js';
import { reference } from './reference.js';
import { slug } from './slug.js';
import { email, markdown, richtext, select, string, text, url } from './string.js';

export type { AnyFieldDef, FieldTypeSpec, FilterOperator, JsonSchema, ResolvedBelow } from './field-type-spec.js';

/** Every field type a schema can declare (docs/api.md, "Schemas"), and all the server knows of each. */
export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeSpec>> = {
  string,
  text,
  email,
  url,
  slug,
  number,
  integer,
  boolean,
  date,
  datetime,
  select,
  markdown,
  richtext,
  reference,
  image,
  file,
  array,
  object,
  blocks,
  geopoint,
  json,
};

export const FIELD_TYPE_NAMES = Object.keys(FIELD_TYPES) as FieldType[];

/** The spec of a type name, or undefined for a name no type has. */
export function fieldType(name: unknown): FieldTypeSpec | undefined {
  return typeof name === 'string' && Object.hasOwn(FIELD_TYPES, name) ? FIELD_TYPES[name as FieldType] : undefined;
}

/** The spec of a checked field definition (every configured field has a known type). */
export const specOf = (field: Pick<AnyFieldDef, 'type'>): FieldTypeSpec => FIELD_TYPES[field.type];

const ALL_OPS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'startsWith', 'exists'];
const MEMBERSHIP_OPS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'nin', 'contains', 'exists'];

/** The filter operators a value of the type takes; a list of scalars tests membership. */
export function filterOperators(spec: FieldTypeSpec, list = false): FilterOperator[] {
  if (spec.structured) return ['exists'];
  if (list) return [...MEMBERSHIP_OPS];
  return ALL_OPS.filter((op) => {
    if (op === 'contains' || op === 'startsWith') return spec.stringLike;
    if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') return spec.ranged;
    return true;
  });
}

/**
 * Resolves the dotted path below a field (`seo.title` below `seo`, `current` below a slug):
 * the JSON path inside the field and the type compared there, or undefined when nothing is there.
 */
export function resolveBelow(field: AnyFieldDef, rest: readonly string[]): ResolvedBelow | undefined {
  const spec = specOf(field);
  if (spec.resolve) return spec.resolve(field, rest, PATHS);
  return rest.length === 0 ? { path: [], type: field.type, array: false } : undefined;
}

function resolveIn(fields: readonly FieldDef[], rest: readonly string[]): ResolvedBelow | undefined {
  const field = fields.find((f) => f.name === rest[0]);
  const below = field && resolveBelow(field, rest.slice(1));
  return below && { ...below, path: [rest[0], ...below.path] };
}

const PATHS = { spec: specOf, fields: resolveIn };

/** What `GET /config/schemas` adds to a field, nested ones included, so the studio keeps no copy of the table. */
export interface StudioFieldHints extends StudioHints {
  filterOperators: FilterOperator[];
  orderable: boolean;
  /** `natural=true` orders it (the list asks for it when sorting by such a field). */
  naturalOrder: boolean;
}

export function withStudioHints(field: AnyFieldDef): AnyFieldDef & { studio: StudioFieldHints } {
  const spec = specOf(field);
  const mapped = spec.mapChildren ? spec.mapChildren(field, withStudioHints) : field;
  // A list of one type may have a control of its own, named by the item's type (an array of references).
  const item = spec.itemOf?.(field);
  const listControl = item && specOf(item).studio.listControl;
  const control = listControl ?? spec.studio.control;
  return {
    ...mapped,
    studio: {
      ...spec.studio,
      control,
      orderable: spec.orderable,
      naturalOrder: spec.orderable && spec.naturalOrder === true,
      filterOperators: filterOperators(spec),
    },
  };
}

/** A field's value as JSON Schema (docs/api.md, "OpenAPI"): what it stores, constraints left to the validator. */
export function fieldJsonSchema(f: AnyFieldDef): JsonSchema {
  const doc: JsonSchema = {};
  if (f.title && f.title !== f.name) doc.title = f.title;
  const leaf = specOf(f).itemOf?.(f) ?? f;
  const note = specOf(leaf).expands === 'documents' ? referenceNote(leaf.to) : undefined;
  const description = [f.description, note].filter(Boolean).join('. ');
  if (description) doc.description = description;
  return { ...specOf(f).jsonSchema(f, SCHEMAS), ...doc };
}

/** A list of fields as one object schema: their properties and the required ones. */
export function objectJsonSchema(fields: readonly FieldDef[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of fields) {
    properties[f.name] = fieldJsonSchema(f);
    if (f.required) required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

const SCHEMAS = { field: fieldJsonSchema, object: objectJsonSchema };

function referenceNote(to: string | string[] | undefined): string {
  const names = [to ?? []].flat().join(' | ');
  return `Id of a ${names || 'document'}: \`expand\` replaces it with the document`;
}
