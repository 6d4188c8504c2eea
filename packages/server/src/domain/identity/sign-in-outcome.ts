import { listMfaMethods, type MfaMethodName } from '../../storage/identity/mfa-store.js';
import { setLastLogin, type StoredUser } from '../../storage/identity/users-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { mailCodeAtSignIn } from '../mfa/email-codes.js';
import { issueMfaToken } from '../mfa/mfa-tokens.js';
import { isTrustedDevice } from '../mfa/trusted-devices.js';
import type { Services } from '../services.js';
import { readSettings } from '../settings/instance-settings.js';
import { startSession, type ClientInfo, type IssuedTokens } from './sessions.js';
import { toUserView, type UserView } from './user-view.js';

/**
 * The outcomes of a first factor (password today; passkeys and the identity provider reuse it):
 * tokens, a second factor to give (`requiresMFA`), or a first method to set up
 * (`requiresMFASetup`, when the instance setting `mfaRequired` is on). docs/api.md, "Login".
 */
export type LoginResult =
  | { outcome: 'success'; tokens: IssuedTokens; user: UserView }
  | { outcome: 'requiresMFA'; mfaToken: string; methods: MfaMethodName[]; expiresAt: string }
  | { outcome: 'requiresMFASetup'; setupToken: string; methods: MfaMethodName[]; expiresAt: string };

/** The outcome with a session: every factor was given. */
export type SignedIn = Extract<LoginResult, { outcome: 'success' }>;

export interface SignInInput extends ClientInfo {
  rememberMe?: boolean;
  /** The device the sign-in comes from: a trusted one skips the second factor. */
  deviceId?: string;
  /**
   * The first factor was already multi-factor (a passkey: possession plus user verification), so
   * no second factor and no setup is asked (docs/api.md, "Multi-factor authentication").
   */
  multiFactor?: boolean;
  /** A first factor other than the password, named in the audit record. */
  method?: SignInMethod;
}

export type SignInMethod = 'passkey' | 'idp';

/** Methods a user may set up when the instance requires one: email codes only when mail can go out. */
const SETUP_METHODS: MfaMethodName[] = ['totp', 'email'];

/**
 * Decides the outcome once the first factor is proven: (0) a multi-factor first factor gets a
 * session at once; (1) a user with an enabled method gets `requiresMFA` unless the device is
 * trusted (email as the only method also mails a code); (2) without a method, under
 * `mfaRequired`, a setup token; (3) otherwise a session.
 */
export async function completeSignIn(svc: Services, user: StoredUser, input: SignInInput): Promise<LoginResult> {
  if (input.multiFactor) return openSignedInSession(svc, user, input);
  const methods = (await listMfaMethods(svc.database, user.id)).filter((m) => m.enabledAt !== null).map((m) => m.method);
  if (methods.length > 0) {
    if (!(await isTrustedDevice(svc, user.id, input.deviceId))) {
      const { token, expiresAt } = await issueMfaToken(svc, user.id, 'mfa', Boolean(input.rememberMe));
      // Email as the only method: the code is on its way with the answer (docs/api.md).
      if (methods.length === 1 && methods[0] === 'email') await mailCodeAtSignIn(svc, user);
      return { outcome: 'requiresMFA', mfaToken: token, methods, expiresAt };
    }
  } else if ((await readSettings(svc)).mfaRequired) {
    const { token, expiresAt } = await issueMfaToken(svc, user.id, 'setup', Boolean(input.rememberMe));
    return {
      outcome: 'requiresMFASetup',
      setupToken: token,
      methods: SETUP_METHODS.filter((m) => m !== 'email' || svc.mailer.configured),
      expiresAt,
    };
  }
  return openSignedInSession(svc, user, input);
}

/**
 * Every factor is given: a session, the last-login time and the audit record (`details.method`
 * names a first factor other than the password).
 */
export async function openSignedInSession(
  svc: Services,
  user: StoredUser,
  input: ClientInfo & { rememberMe?: boolean; method?: SignInMethod },
): Promise<SignedIn> {
  const tokens = await startSession(svc, user, input);
  const at = svc.now().toISOString();
  await setLastLogin(svc.database, user.id, at);
  const client = { ip: input.ip, userAgent: input.userAgent };
  const actor = { kind: 'user' as const, id: user.id, role: null, permissions: new Set<string>() };
  await recordAudit(svc, 'login', { actor, target: user.id, details: input.method ? { method: input.method } : undefined, client });
  return { outcome: 'success', tokens, user: toUserView({ ...user, lastLogin: at }) };
}
