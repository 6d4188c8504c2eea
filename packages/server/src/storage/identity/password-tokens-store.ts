import type { Conn } from '../connection.js';
import { spendTokenOnce } from './spend-token-once.js';

export interface StoredPasswordToken {
  hash: string;
  userId: string;
  purpose: 'reset' | 'invite';
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export async function insertPasswordToken(conn: Conn, t: StoredPasswordToken): Promise<void> {
  await conn.db
    .insertInto('password_tokens')
    .values({
      token_hash: t.hash,
      user_id: t.userId,
      purpose: t.purpose,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      used_at: t.usedAt,
    })
    .execute();
}

export async function findPasswordToken(conn: Conn, hash: string): Promise<StoredPasswordToken | undefined> {
  const r = await conn.db.selectFrom('password_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  return r
    ? { hash: r.token_hash, userId: r.user_id, purpose: r.purpose, createdAt: r.created_at, expiresAt: r.expires_at, usedAt: r.used_at }
    : undefined;
}

/** Whether the user was ever sent a link of this purpose (an invitation is how an invited account is told apart). */
export async function hasPasswordToken(conn: Conn, userId: string, purpose: StoredPasswordToken['purpose']): Promise<boolean> {
  const r = await conn.db
    .selectFrom('password_tokens')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** Spends a token; false when it was spent already (two racing resets: one wins). */
export function spendPasswordToken(conn: Conn, hash: string, at: string): Promise<boolean> {
  return spendTokenOnce(conn, 'password_tokens', hash, at);
}

/** Other unspent tokens of the user stop working once one is used (a reset link leaked earlier dies too). */
export async function spendUserPasswordTokens(conn: Conn, userId: string, at: string): Promise<void> {
  await conn.db.updateTable('password_tokens').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
