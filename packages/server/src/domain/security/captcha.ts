import { errors } from '../../errors.js';
import type { Services } from '../services.js';

const TIMEOUT_MS = 5_000;

/**
 * With `security.captcha` configured, sign-in and reset requests carry a `captchaToken` that the
 * provider must confirm. It fails closed: a missing, refused or unverifiable token is a 400.
 */
export async function requireCaptcha(svc: Services, token: string | undefined, ip: string | undefined): Promise<void> {
  const captcha = svc.config.security.captcha;
  if (!captcha) return;
  if (!token) throw errors.invalidInput('captchaToken is required', [{ field: 'captchaToken', message: 'is required' }]);
  const form = new URLSearchParams({ secret: captcha.secret, response: token, ...(ip ? { remoteip: ip } : {}) });
  let success = false;
  try {
    const res = await fetch(captcha.verifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(TIMEOUT_MS) });
    success = res.ok && ((await res.json()) as { success?: unknown }).success === true;
  } catch (err) {
    svc.log.warn({ err, provider: captcha.provider }, 'captcha verification failed');
    throw errors.invalidInput('The captcha could not be verified; try again', [
      { field: 'captchaToken', message: 'could not be verified' },
    ]);
  }
  if (!success) throw errors.invalidInput('The captcha was not accepted', [{ field: 'captchaToken', message: 'was not accepted' }]);
}
