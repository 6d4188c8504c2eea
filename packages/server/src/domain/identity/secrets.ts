import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` characters of base62 from a CSPRNG, without modulo bias (rejection sampling). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 × 62: bytes above are dropped, not folded
      if (out.length === n) break;
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** API tokens: `vlm_` + 43 base62 characters (≈256 bits). */
export const API_TOKEN_PREFIX = 'vlm_';
/** Refresh tokens carry their own prefix so one sent as a bearer is recognised and refused. */
export const REFRESH_TOKEN_PREFIX = 'vlr_';

/** MFA and setup tokens of a held login (domain/mfa/mfa-tokens.ts): also refused as bearers. */
export const MFA_TOKEN_PREFIX = 'vmf_';
export const SETUP_TOKEN_PREFIX = 'vms_';

/**
 * The authorization server's opaque tokens (docs/oauth2.md): refresh tokens (refused as bearers
 * like ours), device codes and authorization codes. Only their SHA-256 is stored.
 */
export const OAUTH_REFRESH_TOKEN_PREFIX = 'vor_';
export const DEVICE_CODE_PREFIX = 'vdc_';
export const AUTH_CODE_PREFIX = 'vac_';

export const newApiToken = () => API_TOKEN_PREFIX + randomBase62(43);
export const newRefreshToken = () => REFRESH_TOKEN_PREFIX + randomBase62(43);
