import { createHash } from 'node:crypto';
import { safeEqual } from '../identity/secrets.js';

/**
 * Proof Key for Code Exchange (RFC 7636), S256 only: `plain` gives no protection against a stolen
 * code, so it is refused (RFC 7636 §4.4.1 lets a server do so; RFC 9700 §2.1.1).
 */

/** An S256 challenge is BASE64URL(SHA-256(verifier)) without padding: exactly 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** `code-verifier = 43*128unreserved` (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: the verifier must be well formed and hash to the stored challenge (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return VERIFIER.test(verifier) && safeEqual(s256Challenge(verifier), challenge);
}
