import { errors } from '../../errors.js';
import { findUserByEmail, findUserByUsername, setLastLogin, type StoredUser } from '../../storage/users-store.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCaptcha } from '../security/captcha.js';
import { verifyPassword } from './passwords.js';
import { startSession, type ClientInfo, type IssuedTokens } from './sessions.js';
import { toUserView, type UserView } from './user-view.js';

export interface LoginInput extends ClientInfo {
  username: string;
  password: string;
  rememberMe?: boolean;
  deviceId?: string;
  captchaToken?: string;
}

/**
 * The outcomes of a password login. Only `success` exists today; the MFA outcomes
 * (`requiresMFA`, `requiresMFASetup`) join this union without changing callers.
 */
export type LoginResult = { outcome: 'success'; tokens: IssuedTokens; user: UserView };

const FAILED = 'Invalid username or password';

/** `POST /auth/login`: unknown user, wrong password and inactive account fail alike, in about the same time. */
export async function login(svc: Services, input: LoginInput): Promise<LoginResult> {
  // 1. Rate limit: failed attempts per client IP and per username, each on its own.
  const keys = [`ip:${input.ip ?? 'unknown'}`, `user:${input.username.toLowerCase()}`];
  await svc.loginLimiter.check(keys, svc.now().getTime());
  await requireCaptcha(svc, input.captchaToken, input.ip);
  // 2. Find the user by username (or by email, when an address is given).
  const user = await findLoginUser(svc, input.username);
  // 3. Always one bcrypt comparison, so timing does not tell whether the user exists.
  const ok = await verifyPassword(input.password, user?.passwordHash, svc.config.security.bcryptRounds);
  const client = { ip: input.ip, userAgent: input.userAgent };
  if (!user || !ok || !user.active) {
    await svc.loginLimiter.hit(keys, svc.now().getTime());
    await recordAudit(svc, 'loginFailed', { actor: null, target: user?.id, details: { username: input.username }, client });
    throw errors.unauthorized(FAILED);
  }
  // A success resets that username's count (not the IP's: one good account must not unlock guessing others).
  await svc.loginLimiter.clear(keys[1]);
  // 4. Session and tokens.
  const tokens = await startSession(svc, user, input);
  const at = svc.now().toISOString();
  await setLastLogin(svc.database, user.id, at);
  await recordAudit(svc, 'login', { actor: { kind: 'user', id: user.id, role: null, permissions: new Set() }, target: user.id, client });
  return { outcome: 'success', tokens, user: toUserView({ ...user, lastLogin: at }) };
}

async function findLoginUser(svc: Services, name: string): Promise<StoredUser | undefined> {
  const byName = await findUserByUsername(svc.database, name);
  if (byName || !name.includes('@')) return byName;
  return findUserByEmail(svc.database, name);
}
