import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { findAuthCode, setAuthCodeGrant, spendAuthCode, type StoredAuthCode } from '../../storage/oauth2/oauth-auth-codes-store.js';
import { revokeGrant } from '../../storage/oauth2/oauth-grants-store.js';
import { AUTH_CODE_PREFIX, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';
import type { OAuthClient } from './clients.js';
import { openGrant, type TokenResponse } from './grant-tokens.js';
import { verifierMatches } from './pkce.js';
import { splitScope } from './scopes.js';

const INVALID = 'Invalid or expired authorization code';
const REUSED = 'Authorization code already used; the tokens it issued are revoked';

export interface AuthCodeRedemption {
  code: string;
  /** Absent only when the authorization request left it out too (RFC 6749 §4.1.3). */
  redirectUri?: string;
  codeVerifier: string;
}

/**
 * The authorization-code grant (RFC 6749 §4.1.3, RFC 7636 §4.6), in one transaction; the client
 * has already authenticated, or named itself when public (PKCE is then its only proof).
 * 1. The code must exist and be this client's.
 * 2. A code used before means it leaked or raced: the grant its first use opened is revoked
 *    (RFC 6749 §4.1.2, "SHOULD revoke all tokens previously issued based on that code").
 * 3. It must not be expired, the redirect URI must be the authorization request's, and the
 *    verifier must hash to the stored challenge.
 * 4. It is spent with a conditional update (of two racing redemptions one wins; the loser counts
 *    as a second use), and the grant it opens is written on it.
 * Every refusal is `invalid_grant`, thrown after the transaction so a revocation commits.
 */
export async function redeemAuthCode(svc: Services, client: OAuthClient, input: AuthCodeRedemption): Promise<TokenResponse> {
  const now = svc.now().toISOString();
  const hash = sha256Hex(input.code);
  const outcome = await inTransaction(svc.database, async (conn) => {
    // 1. This client's code.
    const row = input.code.startsWith(AUTH_CODE_PREFIX) ? await findAuthCode(conn, hash) : undefined;
    if (!row || row.clientId !== client.id) return { error: INVALID };

    // 2. A second use.
    if (row.usedAt !== null) {
      if (row.grantId !== null) await revokeGrant(conn, row.grantId, now);
      return { error: REUSED };
    }

    // 3. Expiry, redirect URI, PKCE.
    if (row.expiresAt <= now) return { error: INVALID };
    if (!sameRedirect(client, row, input.redirectUri)) return { error: 'redirect_uri does not match the authorization request' };
    if (!verifierMatches(input.codeVerifier, row.codeChallenge)) return { error: 'code_verifier does not match the code_challenge' };

    // 4. Spend, open the grant, remember it on the code.
    if (!(await spendAuthCode(conn, hash, now))) {
      // Lost a race: the winner has committed by now (the update waited for its row lock).
      const winner = await findAuthCode(conn, hash);
      if (winner?.grantId) await revokeGrant(conn, winner.grantId, now);
      return { error: REUSED };
    }
    const { grantId, tokens } = await openGrant(svc, conn, { userId: row.userId, client, scopes: splitScope(row.scope) });
    await setAuthCodeGrant(conn, hash, grantId);
    return { tokens };
  });
  if ('error' in outcome) throw errors.oauth('invalid_grant', outcome.error ?? INVALID);
  return outcome.tokens;
}

/**
 * RFC 6749 §4.1.3: identical to the authorization request's `redirect_uri`. A client with a single
 * registered URI may have left it out there (§3.1.2.3) and may leave it out here: the code can
 * only have gone to that URI.
 */
function sameRedirect(client: OAuthClient, row: StoredAuthCode, sent: string | undefined): boolean {
  if (sent !== undefined) return sent === row.redirectUri;
  return client.redirectUris.length === 1 && client.redirectUris[0] === row.redirectUri;
}
