import type { LimitRule } from '../security/attempt-limiter.js';
import { randomBytes } from 'node:crypto';

/**
 * RFC 8628 §6.1's consonant alphabet: no vowels (no words), no digits, and none of the letters
 * people confuse; 20^8 ≈ 2^34.6 codes, and guessing is rate-limited (docs/oauth2.md, "Device flow").
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/** A fresh normalised user code: 8 characters, upper case, no dash. */
export function newUserCode(): string {
  let out = '';
  while (out.length < LENGTH) {
    for (const byte of randomBytes(LENGTH * 2)) {
      // 240 = 12 × 20: bytes above are dropped, not folded, so every letter is equally likely.
      if (byte < 240) out += USER_CODE_ALPHABET[byte % 20];
      if (out.length === LENGTH) break;
    }
  }
  return out;
}

/** `ABCDEFGH` → `ABCD-EFGH`, as the user reads and types it. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What the user typed → the stored form: case, dashes and spaces do not count (RFC 8628 §6.1);
 * undefined when it cannot be a user code at all.
 */
export function normaliseUserCode(typed: string): string | undefined {
  const code = typed.replace(/[-\s]/g, '').toUpperCase();
  return code.length === LENGTH && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : undefined;
}

/**
 * Misses allowed at the device page (unknown, expired or decided codes) per user and per client
 * IP: 10 in 15 minutes leaves a guesser about 2^-31 of a chance per window against one live code.
 */
export const DEVICE_CODE_GUESSES: LimitRule = { windowMs: 15 * 60_000, max: 10 };
