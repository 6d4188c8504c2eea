import { insertPasskeyChallenge, spendPasskeyChallenge, type ChallengePurpose } from '../../storage/identity/passkeys-store.js';
import type { Services } from '../services.js';

/** How long a challenge may be answered (docs/api.md, "Passkeys"); also the ceremony timeout handed to the browser. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export async function storeChallenge(svc: Services, challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
  const now = svc.now().getTime();
  await insertPasskeyChallenge(svc.database, {
    challenge,
    purpose,
    userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + CHALLENGE_TTL_MS).toISOString(),
  });
}

/**
 * Finds the challenge by the one the browser signed (in `clientDataJSON`) and spends it: the
 * challenge itself is the key, so no cookie or ceremony id is needed. Undefined when the client
 * data is unreadable or the challenge is unknown, expired, already used or issued to someone else.
 */
export async function spendChallenge(
  svc: Services,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<string | undefined> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) return undefined;
  const spent = await spendPasskeyChallenge(svc.database, { challenge, purpose, userId, at: svc.now().toISOString() });
  return spent ? challenge : undefined;
}

function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 512 ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}
