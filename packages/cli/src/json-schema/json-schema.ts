/**
 * Reading the JSON Schemas (2020-12, as OpenAPI 3.1 uses them) the server serves for its document
 * types (`jsonSchema` in `GET /config/schemas`, docs/api.md "OpenAPI"). The CLI knows JSON
 * Schema's keywords and Vellum's one extension keyword, never Vellum's field types: those stay in
 * the server's table.
 */
export type JsonSchema = Record<string, unknown>;

/** The extension keyword on a reference: the document types it may point at (docs/api.md, "OpenAPI"). */
export const REFERENCE_KEYWORD = 'x-vellum-reference';
/** The keyword of a media id (an image or file field): `expand` makes it the media record. */
export const MEDIA_KEYWORD = 'x-vellum-media';

/** Marks a field holding one value per content locale (docs/localization.md). */
export const LOCALIZED_KEYWORD = 'x-vellum-localized';

/** A schema object (a boolean schema is not one: `true` allows anything, `false` nothing). */
export const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The subschemas a keyword holds as a list (`oneOf`, `anyOf`, `allOf`, `prefixItems`). */
export const schemasAt = (s: JsonSchema, keyword: string): JsonSchema[] => {
  const list = s[keyword];
  return Array.isArray(list) ? list.filter(isSchema) : [];
};

/** `properties` as entries, in their order. */
export const propertiesOf = (s: JsonSchema): Array<[string, JsonSchema]> =>
  isSchema(s.properties) ? Object.entries(s.properties).filter((e): e is [string, JsonSchema] => isSchema(e[1])) : [];

export const requiredOf = (s: JsonSchema): Set<string> =>
  new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);

/** `type` as a list: `"string"` → `["string"]`, `["string", "null"]` as it is, none → `[]`. */
export const typesOf = (s: JsonSchema): string[] =>
  (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');

/** The members of a union: `oneOf`, else `anyOf` (both are "one of these" for a value that is valid). */
export const unionOf = (s: JsonSchema): JsonSchema[] | undefined =>
  Array.isArray(s.oneOf) ? schemasAt(s, 'oneOf') : Array.isArray(s.anyOf) ? schemasAt(s, 'anyOf') : undefined;

/** The types a reference may point at, when the schema is a reference's. */
export function referenceTargets(s: JsonSchema): string[] | undefined {
  const to = s[REFERENCE_KEYWORD];
  return Array.isArray(to) ? to.filter((t): t is string => typeof t === 'string') : undefined;
}

/** Every subschema one level down: properties, items, additional properties and the combinators' members. */
export function childSchemas(s: JsonSchema): JsonSchema[] {
  const single = [s.items, s.additionalProperties].filter(isSchema);
  const lists = ['prefixItems', 'oneOf', 'anyOf', 'allOf'].flatMap((k) => schemasAt(s, k));
  return [...propertiesOf(s).map(([, p]) => p), ...single, ...lists];
}
