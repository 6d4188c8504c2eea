import { replacePlaceholders, resolvePreviewPath } from '../../../config/preview-url-template.js';
import type { FieldDef } from '../../../config/types.js';

/**
 * Fills a schema's preview URL template (docs/preview.md, "Templates"): `{token}` with the token,
 * `{_id}` and `{_type}` from the document, any other `{path}` with the value at that field path.
 * Each value is encoded with `encodeURIComponent`; a missing value, or one that is not a string,
 * number or boolean (an object, a list), becomes empty.
 */
export function fillPreviewUrl(
  template: string,
  fields: readonly FieldDef[],
  doc: Readonly<Record<string, unknown>>,
  token: string,
): string {
  return replacePlaceholders(template, (name) => {
    if (name === 'token') return encodeURIComponent(token);
    if (name === '_id' || name === '_type') return encoded(doc[name]);
    const resolved = resolvePreviewPath(fields, name);
    return resolved ? encoded(valueAt(doc, resolved.path)) : '';
  });
}

function valueAt(doc: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let value: unknown = doc;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function encoded(value: unknown): string {
  if (typeof value === 'string') return encodeURIComponent(value);
  if (typeof value === 'number' || typeof value === 'boolean') return encodeURIComponent(String(value));
  return '';
}
