import { errors } from '../../errors.js';
import { listMfaMethods, spendBackupCode, type MfaMethodName } from '../../storage/identity/mfa-store.js';
import type { StoredMfaToken } from '../../storage/identity/mfa-tokens-store.js';
import { findUserById } from '../../storage/identity/users-store.js';
import { deviceHash } from '../identity/known-devices.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ClientInfo } from '../identity/sessions.js';
import { openSignedInSession } from '../identity/sign-in-outcome.js';
import type { Services } from '../services.js';
import { backupCodeHash } from './backup-codes.js';
import { acceptEmailCode } from './email-codes.js';
import { claimAttempt, liveMfaToken, spendToken } from './mfa-tokens.js';
import { acceptTotpCode } from './totp-code.js';
import { trustDevice } from './trusted-devices.js';

export interface MfaVerifyInput extends ClientInfo {
  mfaToken: string;
  code: string;
  method: MfaMethodName;
  trustDevice?: boolean;
  deviceId?: string;
  deviceName?: string;
}

const WRONG_CODE = 'Invalid verification code';

/**
 * `POST /auth/mfa/verify`: finishes a login that answered `requiresMFA`. (1) the token must be
 * live; (2) the account and the client IP must not be spent; (3) one of the token's five tries is
 * taken (burned when none is left); (4) the code must be right, else it counts against the
 * limiter; (5) the token is spent, the device trusted when asked, and the session opened.
 */
export async function verifyMfaLogin(svc: Services, input: MfaVerifyInput) {
  if (input.trustDevice && deviceHash(input.deviceId) === undefined)
    throw errors.invalidInput('trustDevice needs a deviceId of at least 16 characters', [{ field: 'deviceId', message: 'required' }]);
  return finishWithCode(svc, input, async (userId) => {
    const methods = await listMfaMethods(svc.database, userId);
    if (!methods.some((m) => m.method === input.method && m.enabledAt !== null))
      throw errors.invalidInput(`The method ${input.method} is not set up for this account`);
    return input.method === 'totp' ? acceptTotpCode(svc, userId, input.code) : acceptEmailCode(svc, userId, 'login', input.code);
  });
}

/** `POST /auth/mfa/verify-backup`: the same, with one unused backup code (spent by this call). */
export async function verifyBackupLogin(svc: Services, input: ClientInfo & { mfaToken: string; code: string }) {
  return finishWithCode(svc, input, (userId) =>
    spendBackupCode(svc.database, userId, backupCodeHash(userId, input.code), svc.now().toISOString()),
  );
}

async function finishWithCode(
  svc: Services,
  input: MfaVerifyInput | (ClientInfo & { mfaToken: string; code: string }),
  check: (userId: string) => Promise<boolean>,
) {
  const stored: StoredMfaToken = await liveMfaToken(svc, input.mfaToken, 'mfa');
  const keys = [`account:${stored.userId}`, `ip:${input.ip ?? 'unknown'}`];
  await svc.mfaLimiter.check(keys, svc.now().getTime());
  const user = await findUserById(svc.database, stored.userId);
  if (!user || !user.active) throw errors.mfaTokenExpired();
  await claimAttempt(svc, stored);
  if (!(await check(user.id))) {
    await svc.mfaLimiter.hit(keys, svc.now().getTime());
    const client = { ip: input.ip, userAgent: input.userAgent };
    await recordAudit(svc, 'loginFailed', { actor: null, target: user.id, details: { username: user.username, step: 'mfa' }, client });
    throw errors.unauthorized(WRONG_CODE);
  }
  await spendToken(svc, stored);
  await svc.mfaLimiter.clear(keys[0]);
  if ('trustDevice' in input && input.trustDevice) await trustDevice(svc, user.id, input.deviceId, input.deviceName);
  return openSignedInSession(svc, user, { ip: input.ip, userAgent: input.userAgent, rememberMe: stored.rememberMe });
}
