import { sql, type RawBuilder } from 'kysely';
import type { Conn } from './connection.js';
import type { JsonScalar } from './dialects/dialect.js';
import { escapeLike } from './escape-like.js';

/** A typed filter value; exported here so callers above storage/ never name the dialect module. */
export type { JsonScalar };

export type SystemColumn = 'id' | 'status' | 'rev' | 'created_at' | 'updated_at' | 'created_by' | 'updated_by';
/** `array`: the JSON value at `json` is a list, tested for membership; `element`: of objects, tested at that key. */
export type Operand = { column: SystemColumn } | { json: readonly string[]; array?: boolean; element?: readonly string[] };
export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';

export interface Condition {
  operand: Operand;
  op: FilterOp;
  /** A list for in/nin, a boolean for exists, otherwise one typed value. */
  value: JsonScalar | JsonScalar[];
}

/** A system column or a JSON value of `data`, optionally of a named table (alias). */
export function operandSql(conn: Conn, operand: Operand, table?: string): RawBuilder<unknown> {
  if ('column' in operand) return sql.raw(table ? `${table}.${operand.column}` : operand.column);
  return conn.dialect.json(operand.json, table);
}

/** One filter condition on `documents` rows. */
export function conditionSql(conn: Conn, c: Condition): RawBuilder<boolean> {
  const { dialect } = conn;
  const isColumn = 'column' in c.operand;
  const left = operandSql(conn, c.operand);
  const bind = (v: JsonScalar) => (isColumn ? sql`${v}` : dialect.value(v));
  const isArray = !isColumn && (c.operand as { array?: boolean }).array === true;
  const path = isColumn ? [] : (c.operand as { json: readonly string[] }).json;
  const element = isColumn ? undefined : (c.operand as { element?: readonly string[] }).element;
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
