import bcrypt from 'bcrypt';
import type { PasswordPolicy } from '../../config/types.js';
import type { ErrorDetail } from '../../errors.js';

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

let dummyHash: { rounds: number; hash: Promise<string> } | undefined;

/**
 * Compares a password with a stored hash. Without a hash (unknown user) it still runs one bcrypt
 * comparison of the same cost, so failures take about the same time whether the user exists or not.
 */
export async function verifyPassword(password: string, hash: string | null | undefined, rounds: number): Promise<boolean> {
  if (!hash) {
    if (!dummyHash || dummyHash.rounds !== rounds) dummyHash = { rounds, hash: bcrypt.hash('vellum-timing-equaliser', rounds) };
    await bcrypt.compare(password, await dummyHash.hash);
    return false;
  }
  return bcrypt.compare(password, hash);
}

/** bcrypt reads at most 72 bytes; longer passwords would be silently truncated, so they are refused. */
const MAX_PASSWORD_BYTES = 72;

/** The rules of `security.passwordPolicy` a password breaks, as 422 details on `field`. */
export function checkPasswordPolicy(password: string, policy: PasswordPolicy, field = 'password'): ErrorDetail[] {
  const problems: string[] = [];
  if ([...password].length < policy.minLength) problems.push(`must be at least ${policy.minLength} characters`);
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) problems.push(`must be at most ${MAX_PASSWORD_BYTES} bytes`);
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) problems.push('must contain an upper-case letter');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) problems.push('must contain a lower-case letter');
  if (policy.requireNumbers && !/\p{N}/u.test(password)) problems.push('must contain a number');
  if (policy.requireSpecial && !/[^\p{L}\p{N}\s]/u.test(password)) problems.push('must contain a special character');
  return problems.map((message) => ({ field, message }));
}
