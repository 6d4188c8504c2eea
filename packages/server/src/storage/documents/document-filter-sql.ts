import { sql, type RawBuilder } from 'kysely';
import type { Conn } from '../connection.js';
// The list vocabulary is the domain's, in API terms (docs/architecture.md, "The floors"); this
// file maps it to columns and JSON paths. Only its types are read here.
import type { Condition, FieldRef, FilterValue as JsonScalar, SystemField, Untranslated } from '../../domain/documents/list-query.js';
import { escapeLike } from '../escape-like.js';

/** The column each system field is stored in. */
export const SYSTEM_COLUMNS = {
  _id: 'id',
  _status: 'status',
  _rev: 'rev',
  _createdAt: 'created_at',
  _updatedAt: 'updated_at',
  _createdBy: 'created_by',
  _updatedBy: 'updated_by',
} as const satisfies Record<SystemField, string>;

type PathRef = Exclude<FieldRef, { system: SystemField }>;

/** A system column or a JSON value of `data`, optionally of a named table (alias). */
export function operandSql(conn: Conn, field: FieldRef, table?: string): RawBuilder<unknown> {
  if ('system' in field) {
    const column = SYSTEM_COLUMNS[field.system];
    return sql.raw(table ? `${table}.${column}` : column);
  }
  return throughChain(conn, field, (path) => conn.dialect.json(path, table), table);
}

/** The same operand as text: a system column, or a JSON value of `data` as text (a natural order's input). */
export function textOperandSql(conn: Conn, field: FieldRef, table?: string): RawBuilder<unknown> {
  if ('system' in field) return operandSql(conn, field, table);
  return throughChain(conn, field, (path) => conn.dialect.jsonText(path, table), table);
}

/**
 * A value of a localized field read through a locale's chain (docs/localization.md, "Querying"):
 * `path` below the first place in `chain` that holds the field. For a top-level field that is
 * `coalesce(...)` of the places, the same expression as its per-locale index
 * (`localizedIndexExpression`); below one, `case` picks the place by the field itself.
 */
function throughChain<T>(conn: Conn, field: PathRef, read: (path: readonly string[]) => RawBuilder<T>, table?: string): RawBuilder<T> {
  const { chain, path } = field;
  if (!chain) return read(path);
  if (chain.length === 1) return read([...chain[0], ...path]);
  if (path.length === 1) return sql<T>`coalesce(${sql.join(chain.map((at) => read([...at, ...path])))})`;
  return picked(conn, field, (p) => read(p), table);
}

/** `case when <field at place 1> is not null then build(place 1) … else build(last place) end`. */
function picked<T>(conn: Conn, field: PathRef, build: (path: readonly string[]) => RawBuilder<T>, table?: string): RawBuilder<T> {
  const chain = field.chain ?? [[]];
  const at = (prefix: readonly string[]) => [...prefix, ...field.path];
  if (chain.length === 1) return build(at(chain[0]));
  const whens = chain
    .slice(0, -1)
    .map((prefix) => sql`when ${conn.dialect.json([...prefix, field.path[0]], table)} is not null then ${build(at(prefix))}`);
  return sql<T>`(case ${sql.join(whens, sql` `)} else ${build(at(chain[chain.length - 1]))} end)`;
}

/** The expression a localized top-level field's per-locale index is made on: what `operandSql` reads for it. */
export function localizedIndexExpression(conn: Conn, chain: readonly (readonly string[])[], path: readonly string[]): string {
  const at = (p: readonly string[]) => conn.dialect.indexExpression(p);
  const places = chain.map((prefix) => at([...prefix, ...path]));
  if (places.length === 1) return places[0];
  if (path.length === 1) return `coalesce(${places.join(', ')})`;
  // A slug's `current`: the place is picked by the field itself, as `picked` does.
  const whens = chain.slice(0, -1).map((prefix, i) => `when ${at([...prefix, path[0]])} is not null then ${places[i]}`);
  return `(case ${whens.join(' ')} else ${places[places.length - 1]} end)`;
}

/** One filter condition on `documents` rows. */
export function conditionSql(conn: Conn, c: Condition): RawBuilder<boolean> {
  const { dialect } = conn;
  const isColumn = 'system' in c.field;
  const left = operandSql(conn, c.field);
  const bind = (v: JsonScalar) => (isColumn ? sql`${v}` : dialect.value(v));
  const isArray = 'path' in c.field && c.field.array === true;
  const path = 'path' in c.field ? c.field.path : [];
  const element = 'path' in c.field ? c.field.element : undefined;
  const values = Array.isArray(c.value) ? c.value : [c.value];
  // A list's membership in a localized field: tested on the list the chain serves.
  const contains = (v: JsonScalar) =>
    'path' in c.field ? picked(conn, c.field, (p) => dialect.arrayContains(p, v, element)) : dialect.arrayContains(path, v, element);
  const text = (): RawBuilder<unknown> => ('path' in c.field ? throughChain(conn, c.field, (p) => dialect.jsonText(p)) : left);
  switch (c.op) {
    case 'exists':
      return c.value ? sql<boolean>`${left} is not null` : sql<boolean>`${left} is null`;
    case 'eq':
    case 'contains':
      if (isArray) return contains(c.value as JsonScalar);
      if (c.op === 'contains') return dialect.like(isColumn ? left : text(), `%${escapeLike(String(c.value))}%`);
      return sql<boolean>`${left} = ${bind(c.value as JsonScalar)}`;
    case 'ne':
      if (isArray) return sql<boolean>`(${left} is null or not (${contains(c.value as JsonScalar)}))`;
      // An absent field is "not equal" too; SQL's three-valued logic would drop it otherwise.
      return sql<boolean>`(${left} is null or ${left} <> ${bind(c.value as JsonScalar)})`;
    case 'in':
      if (isArray)
        return sql<boolean>`(${sql.join(
          values.map((v) => contains(v)),
          sql` or `,
        )})`;
      return sql<boolean>`${left} in (${sql.join(values.map(bind))})`;
    case 'nin':
      if (isArray)
        return sql<boolean>`(${left} is null or not (${sql.join(
          values.map((v) => contains(v)),
          sql` or `,
        )}))`;
      return sql<boolean>`(${left} is null or ${left} not in (${sql.join(values.map(bind))}))`;
    case 'startsWith':
      return dialect.like(isColumn ? left : text(), `${escapeLike(String(c.value))}%`);
    case 'gt':
      return sql<boolean>`${left} > ${bind(c.value as JsonScalar)}`;
    case 'gte':
      return sql<boolean>`${left} >= ${bind(c.value as JsonScalar)}`;
    case 'lt':
      return sql<boolean>`${left} < ${bind(c.value as JsonScalar)}`;
    case 'lte':
      return sql<boolean>`${left} <= ${bind(c.value as JsonScalar)}`;
  }
}

/** Rows with a localized field that has a default-locale value and none at the locale's place (`Untranslated`). */
export function untranslatedSql(conn: Conn, u: Untranslated): RawBuilder<boolean> {
  if (u.fields.length === 0) return sql<boolean>`1 = 0`;
  const missing = u.fields.map(
    (f) => sql`(${conn.dialect.json([f], 'documents')} is not null and ${conn.dialect.json([...u.place, f], 'documents')} is null)`,
  );
  return sql<boolean>`(${sql.join(missing, sql` or `)})`;
}
