import type { Selectable } from 'kysely';
import type { Conn } from './connection.js';
import type { Tables } from './tables.js';

/** The tables a management list pages through whole, newest first (`GET /tokens`, `GET /webhooks`: docs/api.md). */
type NewestFirstTable = 'api_tokens' | 'webhooks';

/**
 * One page of a whole table, newest first, each row as `toValue` makes it, with the table's row
 * count. Rows created in the same millisecond are ordered by id, so a row keeps its page.
 */
export async function newestFirstPage<T extends NewestFirstTable, R>(
  conn: Conn,
  table: T,
  limit: number,
  offset: number,
  toValue: (row: Selectable<Tables[T]>) => R,
): Promise<{ rows: R[]; total: number }> {
  const rows = await conn.db
    .selectFrom(table as NewestFirstTable)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const { n } = await conn.db
    .selectFrom(table as NewestFirstTable)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  // `table` is one of the union, so its rows are that table's.
  return { rows: (rows as Array<Selectable<Tables[T]>>).map(toValue), total: Number(n) };
}
