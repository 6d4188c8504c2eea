import { errors } from '../../errors.js';
import { findUserByEmail, findUserByUsername, type StoredUser } from '../../storage/identity/users-store.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCaptcha } from '../security/captcha.js';
import { deviceHash, isKnownSignInDevice, rememberSignInDevice } from './known-devices.js';
import { verifyPassword } from './passwords.js';
import type { ClientInfo } from './sessions.js';
import { completeSignIn, type LoginResult } from './sign-in-outcome.js';

export type { LoginResult };

export interface LoginInput extends ClientInfo {
  username: string;
  password: string;
  rememberMe?: boolean;
  deviceId?: string;
  captchaToken?: string;
}

const FAILED = 'Invalid username or password';

/** `POST /auth/login`: unknown user, wrong password and inactive account fail alike, in about the same time. */
export async function login(svc: Services, input: LoginInput): Promise<LoginResult> {
  const now = svc.now().getTime();
  // 1. Rate limit per client IP first: a spent address costs no lookup.
  const ipKey = `ip:${input.ip ?? 'unknown'}`;
  await svc.loginLimiter.check([ipKey], now);
  // 2. Find the user by username (or by email, when an address is given).
  const user = await findLoginUser(svc, input.username);
  // 3. Rate limit per account: every spelling that reaches one account (username, email in any
  //    case) shares one counter, so switching spellings buys no fresh attempts. A known device
  //    of the account counts on a counter of its own instead, so nobody elsewhere can lock its
  //    owner out, and its own failures cannot lock the account either (docs/api.md).
  const device = deviceHash(input.deviceId);
  const known = await isKnownSignInDevice(svc, user?.id, device);
  const limitKey = loginCounterKey(user, input.username, known ? device : undefined);
  await svc.loginLimiter.check([limitKey], now);
  await requireCaptcha(svc, input.captchaToken, input.ip);
  // 4. Always one bcrypt comparison, so timing does not tell whether the user exists.
  const ok = await verifyPassword(input.password, user?.passwordHash, svc.config.security.bcryptRounds);
  const client = { ip: input.ip, userAgent: input.userAgent };
  if (!user || !ok || !user.active) {
    await svc.loginLimiter.hit([ipKey, limitKey], svc.now().getTime());
    await recordAudit(svc, 'loginFailed', { actor: null, target: user?.id, details: { username: input.username }, client });
    throw errors.unauthorized(FAILED);
  }
  // A success resets the count it was checked against (not the IP's: one good account must not
  // unlock guessing others). A known device resets only its own, so the owner signing in does not
  // hand whoever is guessing from elsewhere a fresh set of attempts.
  await svc.loginLimiter.clear(limitKey);
  await rememberSignInDevice(svc, user.id, device);
  // 5. Tokens, or the second factor still to give (docs/api.md, "Login").
  return completeSignIn(svc, user, input);
}

/**
 * The per-account counter: the account's id once the name resolves to one, else the name as
 * typed, trimmed and lower-cased (names that reach no account cannot sign in under any spelling);
 * a known device of the account has one of its own.
 */
function loginCounterKey(user: StoredUser | undefined, name: string, knownDevice: string | undefined): string {
  if (!user) return `name:${name.trim().toLowerCase()}`;
  return knownDevice ? `device:${user.id}:${knownDevice}` : `account:${user.id}`;
}

async function findLoginUser(svc: Services, name: string): Promise<StoredUser | undefined> {
  const byName = await findUserByUsername(svc.database, name);
  if (byName || !name.includes('@')) return byName;
  return findUserByEmail(svc.database, name);
}
