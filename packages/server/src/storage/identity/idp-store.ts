import type { Conn } from '../connection.js';
import type { IdpLinksTable } from '../tables.js';
import { writeUnlessTaken } from '../write-unless-taken.js';

export type IdpMode = 'login' | 'link';

export interface StoredIdpLink {
  id: string;
  provider: string;
  issuer: string;
  subject: string;
  userId: string;
  email: string | null;
  createdAt: string;
}

export interface StoredIdpState {
  nonce: string;
  codeVerifier: string;
  mode: IdpMode;
  userId: string | null;
}

export async function findIdpLinkByAccount(conn: Conn, issuer: string, subject: string): Promise<StoredIdpLink | undefined> {
  const row = await conn.db
    .selectFrom('idp_links')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? toLink(row) : undefined;
}

export async function findIdpLinkOfUser(conn: Conn, userId: string, provider: string): Promise<StoredIdpLink | undefined> {
  const row = await conn.db
    .selectFrom('idp_links')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return row ? toLink(row) : undefined;
}

/** Links a provider account; false when the account, or the user's slot for that provider, is taken. */
export async function insertIdpLink(conn: Conn, l: StoredIdpLink): Promise<boolean> {
  const write = await writeUnlessTaken(conn, () =>
    conn.db
      .insertInto('idp_links')
      .values({
        id: l.id,
        provider: l.provider,
        issuer: l.issuer,
        subject: l.subject,
        user_id: l.userId,
        email: l.email,
        created_at: l.createdAt,
      })
      .execute(),
  );
  return write.written;
}

export async function deleteIdpLink(conn: Conn, userId: string, provider: string): Promise<boolean> {
  const result = await conn.db.deleteFrom('idp_links').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Whether the user has a registered passkey (another way in besides the provider). */
export async function userHasPasskey(conn: Conn, userId: string): Promise<boolean> {
  const row = await conn.db.selectFrom('passkey_credentials').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Stores a pending authorization request; expired ones are dropped on the way, so the table stays small. */
export async function insertIdpState(
  conn: Conn,
  s: StoredIdpState & { stateHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await conn.db.deleteFrom('idp_states').where('expires_at', '<=', s.createdAt).execute();
  await conn.db
    .insertInto('idp_states')
    .values({
      state_hash: s.stateHash,
      nonce: s.nonce,
      code_verifier: s.codeVerifier,
      mode: s.mode,
      user_id: s.userId,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
    })
    .execute();
}

/**
 * Spends a live pending request: its values once, undefined for an unknown, expired or already
 * spent one. Deleting it is the spending, so two callbacks racing with one state cannot both win.
 */
export async function spendIdpState(conn: Conn, stateHash: string, at: string): Promise<StoredIdpState | undefined> {
  const row = await conn.db
    .deleteFrom('idp_states')
    .where('state_hash', '=', stateHash)
    .where('expires_at', '>', at)
    .returning(['nonce', 'code_verifier', 'mode', 'user_id'])
    .executeTakeFirst();
  return row ? { nonce: row.nonce, codeVerifier: row.code_verifier, mode: row.mode as IdpMode, userId: row.user_id } : undefined;
}

function toLink(r: IdpLinksTable): StoredIdpLink {
  return {
    id: r.id,
    provider: r.provider,
    issuer: r.issuer,
    subject: r.subject,
    userId: r.user_id,
    email: r.email,
    createdAt: r.created_at,
  };
}
