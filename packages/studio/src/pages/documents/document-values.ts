import type { Doc, Field } from './schema';

/**
 * The schema's fields of a document, without the system fields (`_id`, `_rev`, …). Read in a
 * content locale, a field served from another locale of the chain (`_fallbacks`,
 * docs/localization.md) is not this locale's own: it is left out, so saving never copies it.
 */
export function ownValues(doc: Doc | undefined, fields: Field[]): Doc {
  const out: Doc = {};
  if (!doc) return out;
  const borrowed = (doc._fallbacks ?? {}) as Record<string, unknown>;
  for (const f of fields) if (doc[f.name] !== undefined && doc[f.name] !== null && !(f.name in borrowed)) out[f.name] = doc[f.name];
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

const isPlainObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The RFC 7396 merge patch that turns `before` into `after` (both cleaned): changed members with
 * their new value, removed ones as `null`, objects compared member by member (a removed member
 * inside one must be `null` too, or the merge would keep it). A draft save sends this.
 */
export function mergePatch(before: unknown, after: unknown): Doc {
  const from = isPlainObject(before) ? before : {};
  const to = isPlainObject(after) ? after : {};
  const patch: Doc = {};
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (!(key in to)) patch[key] = null;
    else if (isPlainObject(from[key]) && isPlainObject(to[key])) {
      const inner = mergePatch(from[key], to[key]);
      if (Object.keys(inner).length) patch[key] = inner;
    } else if (stable(from[key]) !== stable(to[key])) patch[key] = to[key];
  }
  return patch;
}
