import type { Conn } from '../connection.js';
import { spendTokenOnce } from './spend-token-once.js';

/** A short-lived single-purpose token: `mfa` finishes a login, `setup` lets a user set up a first method. */
export interface StoredMfaToken {
  hash: string;
  userId: string;
  purpose: 'mfa' | 'setup';
  createdAt: string;
  expiresAt: string;
  attempts: number;
  usedAt: string | null;
  rememberMe: boolean;
}

export async function insertMfaToken(conn: Conn, t: StoredMfaToken): Promise<void> {
  // Spent and expired tokens of the user are dropped on the way, so the table holds only live rows.
  await conn.db.deleteFrom('mfa_tokens').where('user_id', '=', t.userId).where('expires_at', '<=', t.createdAt).execute();
  await conn.db
    .insertInto('mfa_tokens')
    .values({
      token_hash: t.hash,
      user_id: t.userId,
      purpose: t.purpose,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      attempts: t.attempts,
      used_at: t.usedAt,
      remember_me: t.rememberMe ? 1 : 0,
    })
    .execute();
}

export async function findMfaToken(conn: Conn, hash: string): Promise<StoredMfaToken | undefined> {
  const r = await conn.db.selectFrom('mfa_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  if (!r) return undefined;
  return {
    hash: r.token_hash,
    userId: r.user_id,
    purpose: r.purpose as StoredMfaToken['purpose'],
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    attempts: Number(r.attempts),
    usedAt: r.used_at,
    rememberMe: Boolean(r.remember_me),
  };
}

/**
 * Takes one of the token's attempts before its code is looked at: one conditional update, so
 * however many requests race on one token, at most `max` of them get to try a code. False when
 * the token is spent, expired or out of attempts.
 */
export async function claimMfaTokenAttempt(conn: Conn, hash: string, max: number, now: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('mfa_tokens')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('attempts', '<', max)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Spends the token; false when it was spent already (two racing verifications: one wins). */
export function spendMfaToken(conn: Conn, hash: string, at: string): Promise<boolean> {
  return spendTokenOnce(conn, 'mfa_tokens', hash, at);
}

/** After setup finished, any other setup token of the user is worthless. */
export async function spendUserMfaTokens(conn: Conn, userId: string, purpose: StoredMfaToken['purpose'], at: string): Promise<void> {
  await conn.db
    .updateTable('mfa_tokens')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
