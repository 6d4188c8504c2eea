import type { Doc, Field } from './schema';

/** The schema's fields of a document, without the system fields (`_id`, `_rev`, …). */
export function ownValues(doc: Doc | undefined, fields: Field[]): Doc {
  const out: Doc = {};
  if (!doc) return out;
  for (const f of fields) if (doc[f.name] !== undefined && doc[f.name] !== null) out[f.name] = doc[f.name];
  return out;
}

/** A new document: the fields' `default`s (the server applies them too, on create only). */
export function defaultValues(fields: Field[]): Doc {
  const out: Doc = {};
  for (const f of fields) if (f.default !== undefined) out[f.name] = f.default;
  return out;
}

/**
 * What is sent: empty strings and unset values left out (absent, docs/api.md "Documents": `null`
 * means absent), array items not filled in dropped, empty objects removed.
 */
export function cleanValues(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(cleanValues).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (value && typeof value === 'object') {
    const out: Doc = {};
    for (const [k, v] of Object.entries(value)) {
      const c = cleanValues(v);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (value === '' || value === null) return undefined;
  return value;
}

/** Whether two values hold the same data once cleaned (the unsaved-changes test). */
export const sameValues = (a: unknown, b: unknown) => stable(cleanValues(a)) === stable(cleanValues(b));

/** JSON with object keys sorted, so that key order does not count as a change. */
export function stable(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Doc).sort(([x], [y]) => x.localeCompare(y)))
        : v,
    ) ?? ''
  );
}
