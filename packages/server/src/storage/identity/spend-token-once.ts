import type { Conn } from '../connection.js';

/** Tables of single-use tokens kept as a hash: `token_hash` is the key, `used_at` marks the spend. */
type SingleUseTokenTable = 'password_tokens' | 'mfa_tokens' | 'oauth_refresh_tokens';

/**
 * Marks a token used; false when it was used already. One conditional update, so of two racing
 * requests with the same token exactly one wins.
 */
export async function spendTokenOnce(conn: Conn, table: SingleUseTokenTable, hash: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable(table)
    .set({ used_at: at })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
