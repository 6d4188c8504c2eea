import type { ConfigReader } from './reader.js';
import { parseDuration } from './duration.js';
import { isKnownExample } from './known-examples.js';
import type { VellumConfig } from './types.js';

/**
 * A configured signing key must be one nobody else knows: long enough, not a published example,
 * and not a short pattern repeated. Random hex has only 16 symbols and a random 32-digit hex
 * secret often lacks some, so hex needs 10 distinct digits (fewer happens about once in 10 000).
 */
export function checkJwtSecret(r: ConfigReader, path: string, secret: string): void {
  if (Buffer.byteLength(secret) < 32) return r.problem(path, 'expected at least 32 bytes (leave it unset to have one generated)');
  if (isKnownExample(secret))
    return r.problem(path, 'is a published example; leave it unset to have a random secret generated and stored in the database');
  const distinct = new Set(secret).size;
  if (distinct < (/^[0-9a-f]+$/i.test(secret) ? 10 : 16))
    r.problem(
      path,
      `too few distinct characters (${distinct}; at least 16 expected, 10 for a hex secret); leave it unset to have one generated`,
    );
}

/** `security.cookie {secure, httpOnly, sameSite, maxAge}`: secure and HttpOnly unless told otherwise. */
export function cookieSection(r: ConfigReader, raw: unknown): VellumConfig['security']['cookie'] {
  if (raw === undefined || raw === null || raw === false) return undefined;
  const o = r.object('security.cookie', raw === true ? {} : raw, ['secure', 'httpOnly', 'sameSite', 'maxAge']);
  // Session cookies are never readable by scripts: that is what makes them safer than a stored bearer.
  if (o.httpOnly === false) r.problem('security.cookie.httpOnly', 'session cookies are always HttpOnly');
  const sameSite = String(o.sameSite ?? 'lax').toLowerCase();
  if (!['strict', 'lax', 'none'].includes(sameSite)) r.problem('security.cookie.sameSite', 'expected strict, lax or none');
  const secure = r.bool('security.cookie.secure', o.secure, true);
  if (sameSite === 'none' && !secure) r.problem('security.cookie.sameSite', 'none needs secure: true (browsers refuse it otherwise)');
  const maxAgeMs = o.maxAge === undefined ? undefined : parseDuration(o.maxAge as string | number);
  if (o.maxAge !== undefined && maxAgeMs === undefined) r.problem('security.cookie.maxAge', 'expected a duration such as "7d" or seconds');
  return {
    secure,
    httpOnly: true,
    sameSite: (sameSite.charAt(0).toUpperCase() + sameSite.slice(1)) as 'Strict' | 'Lax' | 'None',
    maxAge: maxAgeMs === undefined ? undefined : maxAgeMs / 1000,
  };
}

const CAPTCHA_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
} as const;

/** `security.captcha {provider, secret, verifyUrl?}`; `verifyUrl` defaults to the provider's. */
export function captchaSection(r: ConfigReader, raw: unknown): VellumConfig['security']['captcha'] {
  if (raw === undefined || raw === null) return undefined;
  const o = r.object('security.captcha', raw, ['provider', 'secret', 'verifyUrl']);
  const provider = o.provider as keyof typeof CAPTCHA_URLS;
  if (!Object.hasOwn(CAPTCHA_URLS, String(provider))) r.problem('security.captcha.provider', 'expected turnstile, hcaptcha or recaptcha');
  const secret = r.string('security.captcha.secret', o.secret, { minLength: 1 });
  if (secret === undefined) r.problem('security.captcha.secret', 'required');
  const verifyUrl = r.string('security.captcha.verifyUrl', o.verifyUrl) ?? CAPTCHA_URLS[provider];
  return { provider, secret: secret ?? '', verifyUrl };
}
