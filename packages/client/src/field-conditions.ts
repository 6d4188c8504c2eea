/**
 * A field's `hidden` or `readOnly` rule (docs/api.md, "Schemas"): `true`, or a declarative test
 * of the document's other top-level fields. It shapes the studio's form only; it is not a
 * permission, and the server stores any valid value whatever the rules say.
 */
export type FieldCondition =
  | { field: string; eq: unknown }
  | { field: string; ne: unknown }
  | { field: string; in: unknown[] }
  | { field: string; exists: boolean }
  | { all: FieldCondition[] }
  | { any: FieldCondition[] }
  | { not: FieldCondition };

/** JSON values compared by content: objects member by member, arrays item by item. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A field "exists" when it holds something: not absent, `null`, an empty string or an empty list. */
function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
}

/**
 * Whether a rule holds for a document's values. `undefined` and `false` never hold, `true`
 * always; an absent field equals nothing (`eq` is false, `ne` true). A pure function: the
 * studio runs it on every change of the form.
 */
export function conditionHolds(rule: FieldCondition | boolean | undefined, doc: Readonly<Record<string, unknown>>): boolean {
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  if ('all' in rule) return rule.all.every((r) => conditionHolds(r, doc));
  if ('any' in rule) return rule.any.some((r) => conditionHolds(r, doc));
  if ('not' in rule) return !conditionHolds(rule.not, doc);
  const value = Object.hasOwn(doc, rule.field) ? doc[rule.field] : undefined;
  if ('eq' in rule) return value !== undefined && same(value, rule.eq);
  if ('ne' in rule) return value === undefined || !same(value, rule.ne);
  if ('in' in rule) return value !== undefined && rule.in.some((v) => same(value, v));
  return present(value) === rule.exists;
}
