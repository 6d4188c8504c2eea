import { advanceTotpStep, listMfaMethods } from '../../storage/identity/mfa-store.js';
import type { Services } from '../services.js';
import { matchTotpStep } from './totp.js';

/**
 * Checks a TOTP code against the user's enabled TOTP method: right for the current step or one
 * either side, and for a step later than the last accepted one (a code is accepted once).
 */
export async function acceptTotpCode(svc: Services, userId: string, code: string): Promise<boolean> {
  const totp = (await listMfaMethods(svc.database, userId)).find((m) => m.method === 'totp' && m.enabledAt !== null);
  if (!totp?.secretEnc) return false;
  const step = matchTotpStep(svc.secretBox.open(totp.secretEnc), code, svc.now().getTime());
  if (step === null) return false;
  return advanceTotpStep(svc.database, userId, step);
}
