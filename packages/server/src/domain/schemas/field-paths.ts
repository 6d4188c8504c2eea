import type { FieldDef, FieldType } from '../../config/types.js';
import { resolveBelow } from '../../field-types/index.js';
import type { CompiledSchema } from './schema-registry.js';

export interface ResolvedPath {
  /** JSON path inside the stored data (a slug resolves to `<field>.current`). */
  path: string[];
  /** The type values at the path are compared as. */
  type: FieldType;
  /** The path names an array of scalars: filters test membership. */
  array: boolean;
  /** The path names a key inside each object of the list at `path`: filters test "some item has". */
  element?: string[];
  field: FieldDef;
}

/**
 * Resolves a dotted field path (`seo.title`, `slug`, `slug.current`, `location.lat`, `tags`)
 * against a schema, or undefined when the schema has no such field. What lies below a field
 * is its type's to say (field-types/).
 */
export function resolveFieldPath(schema: CompiledSchema, dotted: string): ResolvedPath | undefined {
  const [name, ...rest] = dotted.split('.');
  const field = schema.fieldMap.get(name);
  const below = field && resolveBelow(field, rest);
  return below && { ...below, path: [name, ...below.path], field };
}
