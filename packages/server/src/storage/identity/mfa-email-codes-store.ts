import type { Conn } from '../connection.js';

export type EmailCodePurpose = 'login' | 'setup';

export interface StoredEmailCode {
  userId: string;
  purpose: EmailCodePurpose;
  codeHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/**
 * The new code replaces the user's previous one of the same purpose, used or not: one upsert on
 * the key (user, purpose), so codes sent at once leave exactly one, the last written.
 */
export async function replaceEmailCode(conn: Conn, c: StoredEmailCode): Promise<void> {
  const fresh = { code_hash: c.codeHash, created_at: c.createdAt, expires_at: c.expiresAt, used_at: c.usedAt };
  await conn.db
    .insertInto('mfa_email_codes')
    .values({ user_id: c.userId, purpose: c.purpose, ...fresh })
    .onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet(fresh))
    .execute();
}

export async function findEmailCode(conn: Conn, userId: string, purpose: EmailCodePurpose): Promise<StoredEmailCode | undefined> {
  const r = await conn.db
    .selectFrom('mfa_email_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    userId: r.user_id,
    purpose: r.purpose as EmailCodePurpose,
    codeHash: r.code_hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
  };
}

/** Spends that very code; false when it was spent or replaced meanwhile (two racing requests: one wins). */
export async function spendEmailCode(conn: Conn, c: StoredEmailCode, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('mfa_email_codes')
    .set({ used_at: at })
    .where('user_id', '=', c.userId)
    .where('purpose', '=', c.purpose)
    .where('code_hash', '=', c.codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
