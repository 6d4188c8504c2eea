import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import {
  findRefreshToken,
  findSessionPrincipal,
  insertRefreshToken,
  markRefreshTokenUsed,
  revokeSession,
} from '../../storage/identity/sessions-store.js';
import type { Services } from '../services.js';
import { issueAccessToken, type IssuedTokens } from './sessions.js';
import { newRefreshToken, REFRESH_TOKEN_PREFIX, sha256Hex } from './secrets.js';

const INVALID = 'Invalid or expired refresh token';

/**
 * `POST /auth/refresh`: exchanges a refresh token for a new access token and a new refresh token.
 * The old one is spent; presenting a spent one again means it leaked (or raced), so the whole
 * session is revoked (refresh token reuse detection, RFC 9700 §4.14.2).
 */
export async function refreshSession(svc: Services, refreshToken: string): Promise<IssuedTokens> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) throw errors.unauthorized(INVALID);
  const hash = sha256Hex(refreshToken);
  const now = svc.now().toISOString();
  const outcome = await inTransaction(svc.database, async (conn) => {
    const row = await findRefreshToken(conn, hash);
    if (!row) return { error: INVALID };
    if (row.usedAt !== null) {
      await revokeSession(conn, row.sessionId, now);
      return { error: 'Refresh token reuse detected; the session is revoked' };
    }
    if (row.sessionRevokedAt !== null || row.expiresAt <= now) return { error: INVALID };
    const session = await findSessionPrincipal(conn, row.sessionId);
    if (!session || !session.active) return { error: INVALID };
    if (!(await markRefreshTokenUsed(conn, hash, now))) {
      await revokeSession(conn, row.sessionId, now);
      return { error: 'Refresh token reuse detected; the session is revoked' };
    }
    const next = newRefreshToken();
    // The session keeps its absolute lifetime: rotation does not extend it.
    await insertRefreshToken(conn, { hash: sha256Hex(next), sessionId: row.sessionId, createdAt: now, expiresAt: row.expiresAt });
    return { next, session };
  });
  // The revocation above must commit, so the error is thrown only after the transaction.
  if ('error' in outcome) throw errors.unauthorized(outcome.error);
  const access = await issueAccessToken(svc, outcome.session.userId, outcome.session.sessionId, outcome.session.role);
  return { token: access.token, refreshToken: outcome.next, expiresAt: access.expiresAt };
}
