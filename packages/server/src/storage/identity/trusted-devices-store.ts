import type { Conn } from '../connection.js';

export interface StoredTrustedDevice {
  id: string;
  deviceHash: string;
  deviceIdEnc: string;
  name: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

/**
 * Trusts (or trusts again, for a fresh period and under a new id) a device of a user; expired rows
 * of the user are dropped. One upsert on the key (user, device), so the same device trusted twice
 * at once is one row, the last written.
 */
export async function putTrustedDevice(conn: Conn, userId: string, d: StoredTrustedDevice): Promise<void> {
  await conn.db.deleteFrom('trusted_devices').where('user_id', '=', userId).where('expires_at', '<=', d.createdAt).execute();
  const fresh = {
    id: d.id,
    device_id_enc: d.deviceIdEnc,
    name: d.name,
    created_at: d.createdAt,
    last_used_at: d.lastUsedAt,
    expires_at: d.expiresAt,
  };
  await conn.db
    .insertInto('trusted_devices')
    .values({ user_id: userId, device_hash: d.deviceHash, ...fresh })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doUpdateSet(fresh))
    .execute();
}

/** Marks a live trusted device as used now; false when the device is not trusted (or no longer). */
export async function touchTrustedDevice(conn: Conn, userId: string, deviceHash: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('trusted_devices')
    .set({ last_used_at: at })
    .where('user_id', '=', userId)
    .where('device_hash', '=', deviceHash)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listTrustedDevices(conn: Conn, userId: string, at: string): Promise<StoredTrustedDevice[]> {
  const rows = await conn.db
    .selectFrom('trusted_devices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', at)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    deviceHash: r.device_hash,
    deviceIdEnc: r.device_id_enc,
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
  }));
}

/** Revokes one trusted device of the user (by id), or all of them; returns how many went. */
export async function deleteTrustedDevices(conn: Conn, userId: string, id?: string): Promise<number> {
  let q = conn.db.deleteFrom('trusted_devices').where('user_id', '=', userId);
  if (id !== undefined) q = q.where('id', '=', id);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}
