import type { Selectable } from 'kysely';
import type { Conn } from '../connection.js';
import type { OAuthDeviceCodesTable } from './oauth-tables.js';
import { writeUnlessTaken } from '../write-unless-taken.js';

/** Where a device authorization request stands (RFC 8628 §3.5; docs/oauth2.md, "Device flow"). */
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** One device authorization request, keyed by its normalised user code; the device code only as SHA-256. */
export interface StoredDeviceCode {
  userCode: string;
  deviceCodeHash: string;
  clientId: string;
  scope: string;
  status: DeviceCodeStatus;
  intervalS: number;
  lastPolledAt: string | null;
  userId: string | null;
  grantedScope: string | null;
  grantId: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * Stores a new request; false when its user code is taken (the caller draws another). Expired
 * requests are dropped on the way, so the table holds only live rows and user codes come free again.
 */
export async function insertDeviceCode(conn: Conn, d: StoredDeviceCode): Promise<boolean> {
  await conn.db.deleteFrom('oauth_device_codes').where('expires_at', '<=', d.createdAt).execute();
  const r = await writeUnlessTaken(conn, () =>
    conn.db
      .insertInto('oauth_device_codes')
      .values({
        user_code: d.userCode,
        device_code_hash: d.deviceCodeHash,
        client_id: d.clientId,
        scope: d.scope,
        status: d.status,
        interval_s: d.intervalS,
        last_polled_at: d.lastPolledAt,
        user_id: d.userId,
        granted_scope: d.grantedScope,
        grant_id: d.grantId,
        created_at: d.createdAt,
        expires_at: d.expiresAt,
      })
      .execute(),
  );
  return r.written;
}

export async function findDeviceCodeByHash(conn: Conn, hash: string): Promise<StoredDeviceCode | undefined> {
  const r = await conn.db.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
  return r && toDeviceCode(r);
}

export async function findDeviceCodeByUserCode(conn: Conn, userCode: string): Promise<StoredDeviceCode | undefined> {
  const r = await conn.db.selectFrom('oauth_device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
  return r && toDeviceCode(r);
}

/** Records a poll; `slowDown` also grows the code's interval by 5 s (RFC 8628 §3.5). */
export async function recordDevicePoll(conn: Conn, userCode: string, at: string, slowDown: boolean): Promise<void> {
  await conn.db
    .updateTable('oauth_device_codes')
    .set((eb) => ({ last_polled_at: at, interval_s: slowDown ? eb('interval_s', '+', 5) : eb.ref('interval_s') }))
    .where('user_code', '=', userCode)
    .execute();
}

/**
 * The user's decision on a pending, unexpired request: one conditional update, so of two racing
 * decisions one wins and the other finds nothing (false).
 */
export async function decideDeviceCode(
  conn: Conn,
  userCode: string,
  d: { status: 'approved' | 'denied'; userId: string; grantedScope: string | null; now: string },
): Promise<boolean> {
  const r = await conn.db
    .updateTable('oauth_device_codes')
    .set({ status: d.status, user_id: d.userId, granted_scope: d.grantedScope })
    .where('user_code', '=', userCode)
    .where('status', '=', 'pending')
    .where('expires_at', '>', d.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Marks an approved request redeemed: one conditional update, so of two racing polls only one
 * redeems (the other gets false). `grantId` is filled in by `attachDeviceGrant` in the same transaction.
 */
export async function redeemDeviceCodeRow(conn: Conn, userCode: string): Promise<boolean> {
  const r = await conn.db
    .updateTable('oauth_device_codes')
    .set({ status: 'redeemed' })
    .where('user_code', '=', userCode)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function attachDeviceGrant(conn: Conn, userCode: string, grantId: string): Promise<void> {
  await conn.db.updateTable('oauth_device_codes').set({ grant_id: grantId }).where('user_code', '=', userCode).execute();
}

function toDeviceCode(r: Selectable<OAuthDeviceCodesTable>): StoredDeviceCode {
  return {
    userCode: r.user_code,
    deviceCodeHash: r.device_code_hash,
    clientId: r.client_id,
    scope: r.scope,
    status: r.status as DeviceCodeStatus,
    intervalS: Number(r.interval_s),
    lastPolledAt: r.last_polled_at,
    userId: r.user_id,
    grantedScope: r.granted_scope,
    grantId: r.grant_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  };
}
