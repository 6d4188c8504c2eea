import { sql, type RawBuilder } from 'kysely';
import type { Conn } from '../connection.js';
// The list vocabulary is the domain's, in API terms (docs/architecture.md, "The floors"); this
// file maps it to columns and JSON paths. Only its types are read here.
import type { Condition, FieldRef, FilterValue as JsonScalar, SystemField } from '../../domain/documents/list-query.js';
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

/** A system column or a JSON value of `data`, optionally of a named table (alias). */
export function operandSql(conn: Conn, field: FieldRef, table?: string): RawBuilder<unknown> {
  if ('system' in field) {
    const column = SYSTEM_COLUMNS[field.system];
    return sql.raw(table ? `${table}.${column}` : column);
  }
  return conn.dialect.json(field.path, table);
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
  switch (c.op) {
    case 'exists':
      return c.value ? sql<boolean>`${left} is not null` : sql<boolean>`${left} is null`;
    case 'eq':
    case 'contains':
      if (isArray) return dialect.arrayContains(path, c.value as JsonScalar, element);
      if (c.op === 'contains') return dialect.like(isColumn ? left : dialect.jsonText(path), `%${escapeLike(String(c.value))}%`);
      return sql<boolean>`${left} = ${bind(c.value as JsonScalar)}`;
    case 'ne':
      if (isArray) return sql<boolean>`(${left} is null or not (${dialect.arrayContains(path, c.value as JsonScalar, element)}))`;
      // An absent field is "not equal" too; SQL's three-valued logic would drop it otherwise.
      return sql<boolean>`(${left} is null or ${left} <> ${bind(c.value as JsonScalar)})`;
    case 'in':
      if (isArray)
        return sql<boolean>`(${sql.join(
          values.map((v) => dialect.arrayContains(path, v, element)),
          sql` or `,
        )})`;
      return sql<boolean>`${left} in (${sql.join(values.map(bind))})`;
    case 'nin':
      if (isArray)
        return sql<boolean>`(${left} is null or not (${sql.join(
          values.map((v) => dialect.arrayContains(path, v, element)),
          sql` or `,
        )}))`;
      return sql<boolean>`(${left} is null or ${left} not in (${sql.join(values.map(bind))}))`;
    case 'startsWith':
      return dialect.like(isColumn ? left : dialect.jsonText(path), `${escapeLike(String(c.value))}%`);
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
