import QRCode from 'qrcode';
import { errors } from '../../errors.js';
import { listMfaMethods, putPendingMfaMethod } from '../../storage/identity/mfa-store.js';
import type { ClientInfo } from '../identity/sessions.js';
import type { Services } from '../services.js';
import { readSettings } from '../settings/instance-settings.js';
import { finishMfaSetup } from './finish-setup.js';
import type { SetupCaller } from './setup-caller.js';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.js';

/**
 * `POST /auth/mfa/setup/totp`: a new secret, pending until a code from it is confirmed. The
 * secret, its `otpauth://` URI and the QR code are shown here once and never again.
 */
export async function startTotpSetup(svc: Services, caller: SetupCaller) {
  const methods = await listMfaMethods(svc.database, caller.user.id);
  if (methods.some((m) => m.method === 'totp' && m.enabledAt !== null)) throw errors.conflict('TOTP is already enabled; disable it first');
  const secret = newTotpSecret();
  // Setups at once (a double-click): the last one's secret is the pending one. A confirmation
  // that won the race leaves TOTP enabled, which a setup never undoes.
  if (!(await putPendingMfaMethod(svc.database, caller.user.id, 'totp', svc.secretBox.seal(secret), svc.now().toISOString())))
    throw errors.conflict('TOTP is already enabled; disable it first');
  const otpauthUrl = totpUri(secret, await issuerName(svc), caller.user.username);
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg' });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * `POST /auth/mfa/setup/totp/verify {code}`: a right code enables TOTP; the first method also
 * issues backup codes. Called with a setup token, it finishes the held login and opens a session.
 */
export async function confirmTotpSetup(svc: Services, caller: SetupCaller, code: string, client: ClientInfo) {
  const userId = caller.user.id;
  const keys = [`account:${userId}`, `ip:${client.ip ?? 'unknown'}`];
  await svc.mfaLimiter.check(keys, svc.now().getTime());
  const methods = await listMfaMethods(svc.database, userId);
  const pending = methods.find((m) => m.method === 'totp');
  if (!pending?.secretEnc || pending.enabledAt !== null) throw errors.conflict('No TOTP setup is pending; start one first');
  const step = matchTotpStep(svc.secretBox.open(pending.secretEnc), code, svc.now().getTime());
  if (step === null) {
    await svc.mfaLimiter.hit(keys, svc.now().getTime());
    throw errors.unauthorized('Invalid verification code');
  }
  return finishMfaSetup(svc, caller, 'totp', { lastStep: step, secretEnc: pending.secretEnc }, client);
}

/** The issuer shown in authenticator apps: the public host, else the site name. */
async function issuerName(svc: Services): Promise<string> {
  const publicUrl = svc.config.server.publicUrl;
  if (publicUrl) {
    try {
      return new URL(publicUrl).host;
    } catch {
      // A malformed URL is refused by the configuration; fall through to the site name anyway.
    }
  }
  return (await readSettings(svc)).siteName;
}
