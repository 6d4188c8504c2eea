import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../config/config-error.js';
import { isKnownExample } from '../../config/known-examples.js';
import type { VellumConfig } from '../../config/types.js';
import type { Database } from '../../storage/database.js';
import { putInstanceValueOnce, setInstanceValue } from '../../storage/settings/instance-store.js';
import { countUsers, findUserByUsername } from '../../storage/identity/users-store.js';
import { isAppError } from '../../errors.js';
import type { Services } from '../services.js';
import { importJwtKey, type JwtKey } from './access-tokens.js';
import { insertUser } from './insert-user.js';
import { verifyPassword } from './passwords.js';
import { randomBase62, sha256Hex } from './secrets.js';

export const CLAIM_KEY = 'claim_token_hash';

/**
 * The access-token key: the configured secret, or one generated on first start and kept in the
 * database so restarts (and other nodes) keep accepting the same tokens.
 */
export async function loadJwtKey(database: Database, config: VellumConfig): Promise<JwtKey> {
  const secret = config.security.jwtSecret ?? (await putInstanceValueOnce(database, 'jwt_secret', randomBytes(48).toString('base64url')));
  return importJwtKey(new TextEncoder().encode(secret));
}

/** Creates `security.adminUser` when that username does not exist yet. */
export async function ensureAdminUser(svc: Services): Promise<void> {
  const admin = svc.config.security.adminUser;
  if (!admin) return;
  if (await findUserByUsername(svc.database, admin.username)) return;
  try {
    await insertUser(svc, svc.database, { ...admin, role: 'admin' });
  } catch (err) {
    // Another node starting at the same moment created it first.
    if (isAppError(err) && err.code === 'CONFLICT' && (await findUserByUsername(svc.database, admin.username))) return;
    // A bad admin in the config is a configuration problem: report it like one.
    if (isAppError(err) && err.details) throw new ConfigError(err.details.map((d) => `security.adminUser.${d.field}: ${d.message}`));
    throw err;
  }
}

/**
 * One warning line when the configured admin still signs in with a password published in
 * README.md or docs/ (config/known-examples.ts). The password itself is never logged.
 */
export async function warnOnExampleAdminPassword(svc: Services): Promise<void> {
  const admin = svc.config.security.adminUser;
  if (!admin || !isKnownExample(admin.password)) return;
  const user = await findUserByUsername(svc.database, admin.username);
  if (!user || !(await verifyPassword(admin.password, user.passwordHash, svc.config.security.bcryptRounds))) return;
  svc.log.warn(`security.adminUser.password is a published example and still signs in as "${admin.username}": change that password now`);
}

/**
 * With no users at all and no admin configured, a one-time claim token lets the first person
 * create the admin account (never a default password). Returns the token to print, or undefined.
 */
export async function prepareClaim(svc: Services): Promise<string | undefined> {
  if ((await countUsers(svc.database)) > 0) return undefined;
  const token = randomBase62(32);
  await setInstanceValue(svc.database, CLAIM_KEY, sha256Hex(token));
  return token;
}
