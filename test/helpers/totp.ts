import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** The period of the server's TOTP codes (RFC 6238, section 4.1: the time step X, 30 s). */
export const TOTP_PERIOD_MS = 30_000;

/** The code an authenticator app shows for `secret` (base32) at `timestamp`: SHA-1, six digits, 30 s. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_MS / 1000 }).generate({
    timestamp,
  });
}

/**
 * Turns TOTP on for the user of a session the way an app does (docs/api.md, "Multi-factor authentication"):
 * setup, then its verify with the code at `timestamp`; both must answer 200. That code is spent
 * (replay guard): a later use takes a later period.
 */
export async function enableTotp(t: TestApp, token: string, timestamp = Date.now()): Promise<{ secret: string; backupCodes: string[] }> {
  const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = setup.json().data.secret as string;
  const verify = await t.request({
    method: 'POST',
    url: '/api/auth/mfa/setup/totp/verify',
    token,
    payload: { code: totpCode(secret, timestamp) },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  return { secret, backupCodes: verify.json().data.backupCodes as string[] };
}
