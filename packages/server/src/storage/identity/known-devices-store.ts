import type { Conn } from '../connection.js';

/**
 * Remembers (or refreshes) a device of a user until `expiresAt`; expired devices of that user are
 * dropped on the way, so the table holds only live rows of accounts that keep signing in.
 */
export async function rememberKnownDevice(conn: Conn, userId: string, deviceHash: string, at: string, expiresAt: string): Promise<void> {
  await conn.db.deleteFrom('known_devices').where('user_id', '=', userId).where('expires_at', '<=', at).execute();
  await conn.db
    .insertInto('known_devices')
    .values({ user_id: userId, device_hash: deviceHash, created_at: at, last_seen_at: at, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doUpdateSet({ last_seen_at: at, expires_at: expiresAt }))
    .execute();
}

/** True when the device signed in to the user's account and its 30 days have not run out at `at`. */
export async function isKnownDevice(conn: Conn, userId: string, deviceHash: string, at: string): Promise<boolean> {
  const row = await conn.db
    .selectFrom('known_devices')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('device_hash', '=', deviceHash)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return row !== undefined;
}
