import type { FieldDef, FieldType } from '../../config/types.js';
import type { CompiledSchema } from './schema-registry.js';

export interface ResolvedPath {
  /** JSON path inside the stored data (a slug resolves to `<field>.current`). */
  path: string[];
  /** The type values at the path are compared as. */
  type: FieldType;
  /** The path names an array of scalars: filters test membership. */
  array: boolean;
  field: FieldDef;
}

/**
 * Resolves a dotted field path (`seo.title`, `slug`, `slug.current`, `location.lat`, `tags`)
 * against a schema, or undefined when the schema has no such field.
 */
export function resolveFieldPath(schema: CompiledSchema, dotted: string): ResolvedPath | undefined {
  const segments = dotted.split('.');
  let fields: readonly FieldDef[] = schema.fields;
  const path: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const field = fields.find((f) => f.name === seg);
    if (!field) return undefined;
    path.push(seg);
    const rest = segments.length - i - 1;
    switch (field.type) {
      case 'object':
        if (rest === 0) return { path, type: 'object', array: false, field };
        fields = field.fields ?? [];
        continue;
      case 'slug':
        if (rest === 0 || (rest === 1 && segments[i + 1] === 'current'))
          return { path: [...path, 'current'], type: 'slug', array: false, field };
        return undefined;
      case 'geopoint':
        if (rest === 0) return { path, type: 'geopoint', array: false, field };
        if (rest === 1 && (segments[i + 1] === 'lat' || segments[i + 1] === 'lng'))
          return { path: [...path, segments[i + 1]], type: 'number', array: false, field };
        return undefined;
      case 'array': {
        if (rest !== 0) return undefined;
        const of = field.of?.type;
        const scalar = of !== undefined && !['array', 'object', 'geopoint', 'json'].includes(of);
        return { path, type: scalar ? of : 'array', array: scalar, field };
      }
      default:
        return rest === 0 ? { path, type: field.type, array: false, field } : undefined;
    }
  }
  return undefined;
}
