import type { Conn } from '../connection.js';
import type { PasskeyCredentialsTable } from '../tables.js';
import { writeUnlessTaken } from '../write-unless-taken.js';

export interface StoredPasskey {
  /** base64url credential id. */
  id: string;
  userId: string;
  /** base64url COSE public key: never leaves the service. */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type ChallengePurpose = 'register' | 'login';

function toStored(r: PasskeyCredentialsTable): StoredPasskey {
  return {
    id: r.id,
    userId: r.user_id,
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: JSON.parse(r.transports) as string[],
    deviceType: r.device_type,
    backedUp: Boolean(r.backed_up),
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

/** Stores a credential; false when its id is registered already (one authenticator credential, one account). */
export async function insertPasskey(conn: Conn, p: StoredPasskey): Promise<boolean> {
  const write = await writeUnlessTaken(conn, () =>
    conn.db
      .insertInto('passkey_credentials')
      .values({
        id: p.id,
        user_id: p.userId,
        public_key: p.publicKey,
        counter: p.counter,
        transports: JSON.stringify(p.transports),
        device_type: p.deviceType,
        backed_up: p.backedUp ? 1 : 0,
        name: p.name,
        created_at: p.createdAt,
        last_used_at: p.lastUsedAt,
      })
      .execute(),
  );
  return write.written;
}

export async function findPasskey(conn: Conn, id: string): Promise<StoredPasskey | undefined> {
  const row = await conn.db.selectFrom('passkey_credentials').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStored(row) : undefined;
}

export async function listUserPasskeys(conn: Conn, userId: string): Promise<StoredPasskey[]> {
  const rows = await conn.db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toStored);
}

/**
 * Records a successful assertion. The counter moves only from the value it was checked against,
 * so two assertions racing with the same counter cannot both pass; false when it moved meanwhile.
 */
export async function recordPasskeyUse(
  conn: Conn,
  id: string,
  use: { checkedCounter: number; newCounter: number; backedUp: boolean; at: string },
): Promise<boolean> {
  const result = await conn.db
    .updateTable('passkey_credentials')
    .set({ counter: use.newCounter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.at })
    .where('id', '=', id)
    .where('counter', '=', use.checkedCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Renames a credential of the user; undefined when the user has no credential with that id. */
export async function renamePasskey(conn: Conn, userId: string, id: string, name: string): Promise<StoredPasskey | undefined> {
  const row = await conn.db
    .updateTable('passkey_credentials')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

export async function deletePasskey(conn: Conn, userId: string, id: string): Promise<boolean> {
  const result = await conn.db.deleteFrom('passkey_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Stores a fresh challenge; expired challenges are dropped on the way, so the table stays small. */
export async function insertPasskeyChallenge(
  conn: Conn,
  c: { challenge: string; purpose: ChallengePurpose; userId: string | null; createdAt: string; expiresAt: string },
): Promise<void> {
  await conn.db.deleteFrom('passkey_challenges').where('expires_at', '<=', c.createdAt).execute();
  await conn.db
    .insertInto('passkey_challenges')
    .values({ challenge: c.challenge, purpose: c.purpose, user_id: c.userId, created_at: c.createdAt, expires_at: c.expiresAt })
    .execute();
}

/**
 * Spends a live challenge issued for this purpose (and user, for registration): true once, false
 * for an unknown, expired, foreign or already spent one. Deleting it is the spending, so two
 * requests racing with one challenge cannot both win.
 */
export async function spendPasskeyChallenge(
  conn: Conn,
  c: { challenge: string; purpose: ChallengePurpose; userId: string | null; at: string },
): Promise<boolean> {
  let q = conn.db
    .deleteFrom('passkey_challenges')
    .where('challenge', '=', c.challenge)
    .where('purpose', '=', c.purpose)
    .where('expires_at', '>', c.at);
  q = c.userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', c.userId);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
