import { errors } from '../../errors.js';
import { listMfaMethods, putPendingMfaMethod } from '../../storage/identity/mfa-store.js';
import type { ClientInfo } from '../identity/sessions.js';
import type { Services } from '../services.js';
import { acceptEmailCode, countSend, mailEmailCode, requireMail } from './email-codes.js';
import { finishMfaSetup } from './finish-setup.js';
import type { SetupCaller } from './setup-caller.js';

/**
 * `POST /auth/mfa/setup/email`: email codes pending until the mailed code comes back; a second
 * call mails a fresh code (the first stops working). Sends count like login attempts.
 */
export async function startEmailSetup(svc: Services, caller: SetupCaller): Promise<{ sent: true }> {
  requireMail(svc);
  const userId = caller.user.id;
  const methods = await listMfaMethods(svc.database, userId);
  if (methods.some((m) => m.method === 'email' && m.enabledAt !== null))
    throw errors.conflict('Email codes are already enabled; disable them first');
  await countSend(svc, userId);
  if (!(await putPendingMfaMethod(svc.database, userId, 'email', null, svc.now().toISOString())))
    throw errors.conflict('Email codes are already enabled; disable them first');
  await mailEmailCode(svc, caller.user, 'setup');
  return { sent: true };
}

/** `POST /auth/mfa/setup/email/verify {code}`: like the TOTP confirmation, with the mailed code. */
export async function confirmEmailSetup(svc: Services, caller: SetupCaller, code: string, client: ClientInfo) {
  const userId = caller.user.id;
  const keys = [`account:${userId}`, `ip:${client.ip ?? 'unknown'}`];
  await svc.mfaLimiter.check(keys, svc.now().getTime());
  const pending = (await listMfaMethods(svc.database, userId)).find((m) => m.method === 'email');
  if (!pending || pending.enabledAt !== null) throw errors.conflict('No email setup is pending; start one first');
  if (!(await acceptEmailCode(svc, userId, 'setup', code))) {
    await svc.mfaLimiter.hit(keys, svc.now().getTime());
    throw errors.unauthorized('Invalid verification code');
  }
  return finishMfaSetup(svc, caller, 'email', { lastStep: null }, client);
}
