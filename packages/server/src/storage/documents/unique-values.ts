import { sql } from 'kysely';
import type { Conn } from '../connection.js';
import type { JsonScalar } from '../dialect.js';

/** Until the transaction ends, other writers asking for the same slug (type, field, stem) wait: they would pick the same free suffix. */
export async function lockSlug(conn: Conn, type: string, field: string, stem: string): Promise<void> {
  await conn.dialect.lockKey(conn.db, `slug:${type}:${field}:${stem}`);
}

/** True when another document of `type` holds `value` at the JSON path (slug and unique checks). */
export async function valueTaken(
  conn: Conn,
  type: string,
  path: readonly string[],
  value: JsonScalar,
  exceptId?: string,
): Promise<boolean> {
  let q = conn.db
    .selectFrom('documents')
    .select('id')
    .where('type', '=', type)
    .where(sql<boolean>`${conn.dialect.json(path)} = ${conn.dialect.value(value)}`);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Documents of `type` whose value at `path` lies in [`base`, `base-:`): for slugs (only a–z, 0–9
 * and single dashes) that is `base` and `base-<digit>…`, since digits sort between "-" and ":".
 * One range, so the field's index serves it (an OR of two conditions would not).
 */
export async function valuesWithSuffix(
  conn: Conn,
  type: string,
  path: readonly string[],
  base: string,
  exceptId: string,
): Promise<string[]> {
  const rows = await suffixQuery(conn, type, path, base, exceptId)
    .select(sql<string>`${conn.dialect.jsonText(path)}`.as('v'))
    .execute();
  return rows.map((r) => r.v);
}

export async function countWithSuffix(conn: Conn, type: string, path: readonly string[], base: string, exceptId: string): Promise<number> {
  const row = await suffixQuery(conn, type, path, base, exceptId)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function suffixQuery(conn: Conn, type: string, path: readonly string[], base: string, exceptId: string) {
  const expr = conn.dialect.json(path);
  return conn.db
    .selectFrom('documents')
    .where('type', '=', type)
    .where('id', '!=', exceptId)
    .where(expr, '>=', conn.dialect.value(base))
    .where(expr, '<', conn.dialect.value(`${base}-:`));
}
