import type { Conn } from '../connection.js';

export async function getInstanceValue(conn: Conn, key: string): Promise<string | undefined> {
  const row = await conn.db.selectFrom('instance').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` unless the key exists; returns what is stored now (so racing nodes agree). */
export async function putInstanceValueOnce(conn: Conn, key: string, value: string): Promise<string> {
  await conn.db
    .insertInto('instance')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getInstanceValue(conn, key)) as string;
}

export async function setInstanceValue(conn: Conn, key: string, value: string): Promise<void> {
  await conn.db
    .insertInto('instance')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Deletes the key only while it holds `value`; true when this call deleted it. */
export async function takeInstanceValue(conn: Conn, key: string, value: string): Promise<boolean> {
  const result = await conn.db.deleteFrom('instance').where('key', '=', key).where('value', '=', value).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
