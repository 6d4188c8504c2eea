import type { IdpConfig } from '../../config/types.js';
import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { insertIdpLink } from '../../storage/identity/idp-store.js';
import { findUserByUsername, type StoredUser } from '../../storage/identity/users-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { insertUser } from '../identity/insert-user.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { runUserHooks } from '../users/user-hooks.js';
import type { ProviderAccount } from './provider-client.js';
import { newIdpLink } from './new-idp-link.js';

/**
 * `autoCreateUsers`: a provider account linked to nobody becomes a new active user with
 * `defaultRole` (the config's hooks have the last word), no password, linked to that account.
 * The address must be one the provider verified; an address another user has is 409, never a
 * silent link (that would hand the other account to whoever controls the provider account).
 */
export async function createUserFromProvider(svc: Services, cfg: IdpConfig, account: ProviderAccount): Promise<StoredUser> {
  if (!account.email || !account.emailVerified)
    throw errors.forbidden('The identity provider did not give a verified email address for a new account');
  const username = await freeUsername(svc, account.preferredUsername ?? account.email.split('@')[0]);
  const profile = { username, email: account.email, firstName: account.givenName, lastName: account.familyName };
  const role = await runUserHooks(svc, { ...profile, role: cfg.defaultRole });
  const user = await inTransaction(svc.database, async (conn) => {
    const created = await insertUser(svc, conn, { ...profile, role, active: true });
    if (!(await insertIdpLink(conn, newIdpLink(svc, account, created.id))))
      throw errors.conflict('This identity-provider account is already linked');
    return created;
  });
  const actor = { kind: 'user' as const, id: user.id, role: null, permissions: new Set<string>() };
  await recordAudit(svc, 'userCreate', { actor, target: user.id, details: { username: user.username, role: user.role, via: 'idp' } });
  return user;
}

/** A username from the provider's name for the user: allowed characters only, made unique with a counter. */
async function freeUsername(svc: Services, wanted: string): Promise<string> {
  const base =
    wanted
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || 'user';
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await findUserByUsername(svc.database, candidate))) return candidate;
  }
  return `${base}-${uuidv7().slice(-8)}`;
}
