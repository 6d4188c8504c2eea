import type { Conn } from '../connection.js';

/** An authorization code (RFC 6749 §4.1.2), kept as SHA-256 only, bound to what it was issued for. */
export interface StoredAuthCode {
  hash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  /** The grant its redemption opened: a second use revokes it. */
  grantId: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export async function insertAuthCode(conn: Conn, c: StoredAuthCode): Promise<void> {
  await conn.db
    .insertInto('oauth_auth_codes')
    .values({
      code_hash: c.hash,
      client_id: c.clientId,
      user_id: c.userId,
      redirect_uri: c.redirectUri,
      scope: c.scope,
      code_challenge: c.codeChallenge,
      grant_id: c.grantId,
      created_at: c.createdAt,
      expires_at: c.expiresAt,
      used_at: c.usedAt,
    })
    .execute();
}

export async function findAuthCode(conn: Conn, hash: string): Promise<StoredAuthCode | undefined> {
  const r = await conn.db.selectFrom('oauth_auth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  return (
    r && {
      hash: r.code_hash,
      clientId: r.client_id,
      userId: r.user_id,
      redirectUri: r.redirect_uri,
      scope: r.scope,
      codeChallenge: r.code_challenge,
      grantId: r.grant_id,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      usedAt: r.used_at,
    }
  );
}

/** Marks the code used; false when it was used already. One conditional update, so of two racing redemptions exactly one wins. */
export async function spendAuthCode(conn: Conn, hash: string, at: string): Promise<boolean> {
  const r = await conn.db
    .updateTable('oauth_auth_codes')
    .set({ used_at: at })
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setAuthCodeGrant(conn: Conn, hash: string, grantId: string): Promise<void> {
  await conn.db.updateTable('oauth_auth_codes').set({ grant_id: grantId }).where('code_hash', '=', hash).execute();
}

/** Drops codes that expired before `before`: kept a while after expiry so a late second use still revokes its grant. */
export async function deleteAuthCodesExpiredBefore(conn: Conn, before: string): Promise<void> {
  await conn.db.deleteFrom('oauth_auth_codes').where('expires_at', '<', before).execute();
}
