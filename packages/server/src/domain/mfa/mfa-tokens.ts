import { errors } from '../../errors.js';
import {
  claimMfaTokenAttempt,
  findMfaToken,
  insertMfaToken,
  spendMfaToken,
  type StoredMfaToken,
} from '../../storage/identity/mfa-tokens-store.js';
import { MFA_TOKEN_PREFIX, randomBase62, SETUP_TOKEN_PREFIX, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';

/**
 * The single-purpose tokens of a login that is not finished: `mfaToken` (5 minutes, 5 wrong codes
 * burn it) and `setupToken` (15 minutes). Opaque, stored as SHA-256, each with a prefix of its own
 * so one sent as a bearer is recognised and refused.
 */
export const MFA_TOKEN_MAX_ATTEMPTS = 5;
const TTL_MS = { mfa: 5 * 60_000, setup: 15 * 60_000 };
const PREFIX = { mfa: MFA_TOKEN_PREFIX, setup: SETUP_TOKEN_PREFIX };

export async function issueMfaToken(svc: Services, userId: string, purpose: StoredMfaToken['purpose'], rememberMe: boolean) {
  const now = svc.now();
  const token = PREFIX[purpose] + randomBase62(43);
  const expiresAt = new Date(now.getTime() + TTL_MS[purpose]).toISOString();
  await insertMfaToken(svc.database, {
    hash: sha256Hex(token),
    userId,
    purpose,
    createdAt: now.toISOString(),
    expiresAt,
    attempts: 0,
    usedAt: null,
    rememberMe,
  });
  return { token, expiresAt };
}

/** The live token of that purpose, or 401 `MFA_TOKEN_EXPIRED` (unknown, expired, spent or burned alike). */
export async function liveMfaToken(svc: Services, token: string, purpose: StoredMfaToken['purpose']): Promise<StoredMfaToken> {
  const stored = token.startsWith(PREFIX[purpose]) ? await findMfaToken(svc.database, sha256Hex(token)) : undefined;
  if (
    !stored ||
    stored.purpose !== purpose ||
    stored.usedAt !== null ||
    stored.attempts >= MFA_TOKEN_MAX_ATTEMPTS ||
    stored.expiresAt <= svc.now().toISOString()
  ) {
    throw errors.mfaTokenExpired();
  }
  return stored;
}

/**
 * Takes one of the token's five tries before a code is checked, so concurrent guesses cannot
 * outrun the count: the sixth request finds the token burned whatever the timing.
 */
export async function claimAttempt(svc: Services, stored: StoredMfaToken): Promise<void> {
  if (!(await claimMfaTokenAttempt(svc.database, stored.hash, MFA_TOKEN_MAX_ATTEMPTS, svc.now().toISOString())))
    throw errors.mfaTokenExpired();
}

/** Spends the token once its code was right; a second request racing with the same token loses. */
export async function spendToken(svc: Services, stored: StoredMfaToken): Promise<void> {
  if (!(await spendMfaToken(svc.database, stored.hash, svc.now().toISOString()))) throw errors.mfaTokenExpired();
}
