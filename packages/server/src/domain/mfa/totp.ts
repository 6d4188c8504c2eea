import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as the spec fixes it: SHA-1, 6 digits, 30-second steps, one step either side. */
const PERIOD = 30;
const DIGITS = 6;
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUri(secret: string, issuer: string, label: string): string {
  return totp(secret, issuer, label).toString();
}

/**
 * The time step a code belongs to, when it matches the current step or one either side; null
 * otherwise. The caller refuses a step not later than the last accepted one (a code works once).
 */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, '', '').validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD) + delta;
}

function totp(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}
