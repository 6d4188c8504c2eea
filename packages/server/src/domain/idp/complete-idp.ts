import type { IdpConfig } from '../../config/types.js';
import { errors, isAppError } from '../../errors.js';
import { findIdpLinkByAccount, findIdpLinkOfUser, insertIdpLink, spendIdpState, type IdpMode } from '../../storage/identity/idp-store.js';
import { findUserById, type StoredUser } from '../../storage/identity/users-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { deviceHash, rememberSignInDevice } from '../identity/known-devices.js';
import type { ClientInfo } from '../identity/sessions.js';
import { completeSignIn, type LoginResult } from '../identity/sign-in-outcome.js';
import type { Services } from '../services.js';
import { createUserFromProvider } from './auto-create-user.js';
import { PROVIDER, requireIdp } from './idp-settings.js';
import { redeemCode, type ProviderAccount } from './provider-client.js';
import { stateHash } from './start-idp.js';
import { newIdpLink } from './new-idp-link.js';

export interface IdpCallbackInput extends ClientInfo {
  code: string;
  state: string;
  mode?: IdpMode;
  rememberMe?: boolean;
  deviceId?: string;
}

export type IdpCallbackResult = LoginResult | { outcome: 'linked' };

/** Refusals that count against the client IP's sign-in limit, as a wrong password does. */
const COUNTED = new Set(['INVALID_INPUT', 'UNAUTHORIZED', 'FORBIDDEN']);

/**
 * `POST /auth/oauth/idp/callback`: the client IP's sign-in limit (shared with password sign-in)
 * is checked first and every refusal counts against it (docs/api.md, "Rate limits").
 */
export async function completeIdp(svc: Services, input: IdpCallbackInput): Promise<IdpCallbackResult> {
  const cfg = requireIdp(svc);
  const ipKey = `ip:${input.ip ?? 'unknown'}`;
  await svc.loginLimiter.check([ipKey], svc.now().getTime());
  try {
    return await callback(svc, cfg, input);
  } catch (err) {
    if (isAppError(err) && COUNTED.has(err.code)) await svc.loginLimiter.hit([ipKey], svc.now().getTime());
    throw err;
  }
}

/**
 * (1) Spend the state, (2) redeem the code and check the ID token, then (3) link the account to
 * the user who started a link flow, or (4) sign in the user it is linked to, through the same
 * outcomes as a password (so MFA still applies).
 */
async function callback(svc: Services, cfg: IdpConfig, input: IdpCallbackInput): Promise<IdpCallbackResult> {
  // 1. Unknown, used or expired state: 400, before the provider is asked anything.
  const pending = await spendIdpState(svc.database, stateHash(input.state), svc.now().toISOString());
  if (!pending || (input.mode !== undefined && input.mode !== pending.mode))
    throw errors.invalidInput('Unknown, used or expired state; start the sign-in again');
  // 2. The code, for the ID token this request's nonce is in.
  const account = await redeemCode(svc, cfg, {
    code: input.code,
    state: input.state,
    nonce: pending.nonce,
    codeVerifier: pending.codeVerifier,
  });
  const client = { ip: input.ip, userAgent: input.userAgent };
  // 3. Link flow.
  if (pending.mode === 'link' && pending.userId) {
    await linkAccount(svc, pending.userId, account, client);
    return { outcome: 'linked' };
  }
  // 4. Login flow: the linked user, or a new one under autoCreateUsers.
  const link = await findIdpLinkByAccount(svc.database, account.issuer, account.subject);
  let user: StoredUser | undefined;
  if (link) user = await findUserById(svc.database, link.userId);
  else if (cfg.autoCreateUsers) user = await createUserFromProvider(svc, cfg, account);
  else {
    await recordAudit(svc, 'loginFailed', { actor: null, details: { method: 'idp', reason: 'not linked' }, client });
    throw errors.forbidden('This identity-provider account is not linked to a user');
  }
  if (!user || !user.active) {
    await recordAudit(svc, 'loginFailed', { actor: null, target: user?.id, details: { method: 'idp', reason: 'account' }, client });
    throw errors.unauthorized('This account cannot sign in');
  }
  await rememberSignInDevice(svc, user.id, deviceHash(input.deviceId));
  return completeSignIn(svc, user, { ...input, method: 'idp' });
}

/** One link per provider account and one per user: either taken by someone else is 409. */
async function linkAccount(svc: Services, userId: string, account: ProviderAccount, client: ClientInfo): Promise<void> {
  const user = await findUserById(svc.database, userId);
  if (!user || !user.active) throw errors.unauthorized('This account cannot link an identity provider');
  if (await alreadyLinked(svc, userId, account)) return;
  // Refused by a link made since the checks: the same link made by a concurrent callback of this
  // user (a second tab, a double submit) is what was asked; anything else is the 409 of the checks.
  if (!(await insertIdpLink(svc.database, newIdpLink(svc, account, userId)))) {
    if (await alreadyLinked(svc, userId, account)) return;
    throw errors.conflict('This identity-provider account or this user is linked already');
  }
  const actor = { kind: 'user' as const, id: userId, role: null, permissions: new Set<string>() };
  await recordAudit(svc, 'idpLink', { actor, target: userId, details: { issuer: account.issuer }, client });
}

/**
 * True when this account is linked to this user (linking again changes nothing); 409 when the
 * account is linked to another user or the user to another account; false when both are free.
 */
async function alreadyLinked(svc: Services, userId: string, account: ProviderAccount): Promise<boolean> {
  const existing = await findIdpLinkByAccount(svc.database, account.issuer, account.subject);
  if (existing?.userId === userId) return true;
  if (existing) throw errors.conflict('This identity-provider account is linked to another user');
  const own = await findIdpLinkOfUser(svc.database, userId, PROVIDER);
  if (own && own.issuer === account.issuer && own.subject === account.subject) return true;
  if (own) throw errors.conflict('Another identity-provider account is linked to this user; unlink it first');
  return false;
}
