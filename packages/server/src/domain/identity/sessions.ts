import { inTransaction, type Conn } from '../../storage/connection.js';
import {
  insertRefreshToken,
  insertSession,
  listLiveSessionIds,
  lockUserSessions,
  revokeSession,
} from '../../storage/identity/sessions-store.js';
import type { StoredUser } from '../../storage/identity/users-store.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { signAccessToken } from './access-tokens.js';
import { newRefreshToken, sha256Hex } from './secrets.js';

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  expiresAt: string;
}

/**
 * Opens a server-side session for a user who has proven who they are: a session row, its first
 * refresh token (stored hashed) and an access token bound to it by `sid`. With
 * `security.session.maxConcurrent`, the oldest live sessions beyond the limit are revoked.
 */
export async function startSession(svc: Services, user: StoredUser, opts: ClientInfo & { rememberMe?: boolean }): Promise<IssuedTokens> {
  const now = svc.now();
  const sid = uuidv7(now.getTime());
  const ttl = opts.rememberMe ? svc.config.security.rememberMeTtlMs : svc.config.security.refreshTokenTtlMs;
  const refreshExpiresAt = new Date(now.getTime() + ttl).toISOString();
  const refreshToken = newRefreshToken();
  await inTransaction(svc.database, async (conn) => {
    await insertSession(conn, {
      id: sid,
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: refreshExpiresAt,
      rememberMe: Boolean(opts.rememberMe),
      ip: opts.ip ?? null,
      userAgent: opts.userAgent?.slice(0, 512) ?? null,
    });
    await insertRefreshToken(conn, {
      hash: sha256Hex(refreshToken),
      sessionId: sid,
      createdAt: now.toISOString(),
      expiresAt: refreshExpiresAt,
    });
    await enforceMaxConcurrent(svc, conn, user.id, now.toISOString());
  });
  const access = await issueAccessToken(svc, user.id, sid, user.role);
  return { token: access.token, refreshToken, expiresAt: access.expiresAt };
}

export function issueAccessToken(svc: Services, userId: string, sid: string, role: string) {
  return signAccessToken(
    svc.jwtKey,
    svc.config.security.issuer,
    { sub: userId, sid, role },
    svc.now(),
    svc.config.security.accessTokenTtlMs,
  );
}

async function enforceMaxConcurrent(svc: Services, conn: Conn, userId: string, now: string): Promise<void> {
  const max = svc.config.security.session.maxConcurrent;
  if (!max) return;
  await lockUserSessions(conn, userId);
  const live = await listLiveSessionIds(conn, userId, now);
  for (const id of live.slice(0, Math.max(0, live.length - max))) await revokeSession(conn, id, now);
}
