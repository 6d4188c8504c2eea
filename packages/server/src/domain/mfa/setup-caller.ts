import { errors } from '../../errors.js';
import type { StoredMfaToken } from '../../storage/identity/mfa-tokens-store.js';
import { findUserById, type StoredUser } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { liveMfaToken } from './mfa-tokens.js';
import { signedInUserId } from './trusted-devices.js';

/** Who is setting up a method: a signed-in user, or a login held at `requiresMFASetup` (its setup token). */
export interface SetupCaller {
  user: StoredUser;
  setupToken?: StoredMfaToken;
}

/** The `x-mfa-setup-token` header wins; without it the caller must be a signed-in user. */
export async function resolveSetupCaller(svc: Services, actor: Principal, setupToken: string | undefined): Promise<SetupCaller> {
  const stored = setupToken !== undefined ? await liveMfaToken(svc, setupToken, 'setup') : undefined;
  const user = await findUserById(svc.database, stored?.userId ?? signedInUserId(actor));
  if (!user || !user.active) throw errors.unauthorized('Account not found or deactivated');
  return { user, setupToken: stored };
}
