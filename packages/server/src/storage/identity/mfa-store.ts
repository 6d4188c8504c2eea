import type { Conn } from '../connection.js';

export type MfaMethodName = 'totp' | 'email';

export interface StoredMfaMethod {
  method: MfaMethodName;
  secretEnc: string | null;
  lastStep: number | null;
  enabledAt: string | null;
}

export async function listMfaMethods(conn: Conn, userId: string): Promise<StoredMfaMethod[]> {
  const rows = await conn.db.selectFrom('mfa_methods').selectAll().where('user_id', '=', userId).orderBy('method').execute();
  return rows.map((r) => ({
    method: r.method as MfaMethodName,
    secretEnc: r.secret_enc,
    lastStep: r.last_step === null ? null : Number(r.last_step),
    enabledAt: r.enabled_at,
  }));
}

/**
 * A method being set up (not enabled yet): replaces an earlier unfinished setup of the same method,
 * so the last of several setups at once wins. One upsert, never a delete and an insert, so two
 * setups at once cannot both insert (the key is the user and the method). False when the method
 * is enabled (a confirmation won the race): an enabled method is never put back to pending.
 */
export async function putPendingMfaMethod(
  conn: Conn,
  userId: string,
  method: MfaMethodName,
  secretEnc: string | null,
  at: string,
): Promise<boolean> {
  const result = await conn.db
    .insertInto('mfa_methods')
    .values({ user_id: userId, method, secret_enc: secretEnc, last_step: null, created_at: at, enabled_at: null })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'method'])
        .doUpdateSet({ secret_enc: secretEnc, last_step: null, created_at: at })
        .where('mfa_methods.enabled_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows) === 1;
}

/**
 * Enables a pending method; false when it was enabled already (two racing confirmations: one
 * wins) or, given the `secretEnc` the code was checked against, when a setup started since
 * replaced that secret (the method stays pending with the newer one).
 */
export async function enableMfaMethod(
  conn: Conn,
  userId: string,
  method: MfaMethodName,
  at: string,
  lastStep: number | null,
  secretEnc?: string,
) {
  let q = conn.db
    .updateTable('mfa_methods')
    .set({ enabled_at: at, last_step: lastStep })
    .where('user_id', '=', userId)
    .where('method', '=', method)
    .where('enabled_at', 'is', null);
  if (secretEnc !== undefined) q = q.where('secret_enc', '=', secretEnc);
  const result = await q.executeTakeFirst();
  await syncMfaEnabled(conn, userId);
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an accepted TOTP step, only when it is later than the last one: the replay guard, as one
 * conditional update so two requests with the same code cannot both pass.
 */
export async function advanceTotpStep(conn: Conn, userId: string, step: number): Promise<boolean> {
  const result = await conn.db
    .updateTable('mfa_methods')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('method', '=', 'totp')
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes one method, or all of them; backup codes go with the last method. */
export async function deleteMfaMethods(conn: Conn, userId: string, method?: MfaMethodName): Promise<number> {
  let q = conn.db.deleteFrom('mfa_methods').where('user_id', '=', userId);
  if (method) q = q.where('method', '=', method);
  const result = await q.executeTakeFirst();
  const enabled = await syncMfaEnabled(conn, userId);
  if (!enabled) await conn.db.deleteFrom('mfa_backup_codes').where('user_id', '=', userId).execute();
  return Number(result.numDeletedRows);
}

async function syncMfaEnabled(conn: Conn, userId: string): Promise<boolean> {
  const row = await conn.db
    .selectFrom('mfa_methods')
    .select('method')
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  await conn.db
    .updateTable('users')
    .set({ mfa_enabled: row ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
  return row !== undefined;
}

/**
 * A new set of backup codes (hashes) replaces the old set entirely. Called inside a transaction:
 * the user's key is held until commit, so two replacements at once run one after the other and
 * the second deletes the first's set (without it each would delete only the older set it saw,
 * and the user would keep both new ones).
 */
export async function replaceBackupCodes(conn: Conn, userId: string, hashes: readonly string[], at: string): Promise<void> {
  await conn.dialect.lockKey(conn.db, `backup-codes:${userId}`);
  await conn.db.deleteFrom('mfa_backup_codes').where('user_id', '=', userId).execute();
  await conn.db
    .insertInto('mfa_backup_codes')
    .values(hashes.map((h) => ({ code_hash: h, user_id: userId, created_at: at, used_at: null })))
    .execute();
}

/** Spends one unused code of the user; false when there is none with that hash. */
export async function spendBackupCode(conn: Conn, userId: string, hash: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('mfa_backup_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedBackupCodes(conn: Conn, userId: string): Promise<number> {
  const { n } = await conn.db
    .selectFrom('mfa_backup_codes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
