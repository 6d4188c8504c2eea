import type { Conn } from '../connection.js';
import { preparedQuery } from '../prepared-query.js';
import { PRINCIPAL_USER_COLUMNS, toPrincipalUser, type PrincipalUser } from './principal-user.js';

export interface StoredSession {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  rememberMe: boolean;
  ip: string | null;
  userAgent: string | null;
}

/** A session joined with the live state of its user: what every authenticated request checks. */
export interface SessionPrincipalRow extends PrincipalUser {
  sessionId: string;
  revokedAt: string | null;
  expiresAt: string;
}

export async function insertSession(conn: Conn, s: StoredSession): Promise<void> {
  await conn.db
    .insertInto('sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      created_at: s.createdAt,
      last_used_at: s.createdAt,
      expires_at: s.expiresAt,
      revoked_at: null,
      remember_me: s.rememberMe ? 1 : 0,
      ip: s.ip,
      user_agent: s.userAgent,
    })
    .execute();
}

// Run for every request with a user token: prepared once.
const sessionPrincipal = preparedQuery(({ db }, param: (name: 'sessionId') => string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as session_id', 'sessions.revoked_at', 'sessions.expires_at', ...PRINCIPAL_USER_COLUMNS])
    .where('sessions.id', '=', param('sessionId')),
);

export async function findSessionPrincipal(conn: Conn, sessionId: string): Promise<SessionPrincipalRow | undefined> {
  const [row] = await sessionPrincipal(conn, { sessionId });
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    ...toPrincipalUser(row),
  };
}

export async function revokeSession(conn: Conn, sessionId: string, at: string): Promise<void> {
  await conn.db.updateTable('sessions').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/**
 * Inside a transaction: holds the user's sessions key until commit, so logins at once count the
 * user's live sessions one after the other (each sees the sessions the others committed) and
 * `maxConcurrent` holds.
 */
export async function lockUserSessions(conn: Conn, userId: string): Promise<void> {
  await conn.dialect.lockKey(conn.db, `sessions:${userId}`);
}

/** Live sessions of a user, oldest first (for `maxConcurrent`). */
export async function listLiveSessionIds(conn: Conn, userId: string, now: string): Promise<string[]> {
  const rows = await conn.db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((r) => r.id);
}

export async function insertRefreshToken(
  conn: Conn,
  t: { hash: string; sessionId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await conn.db
    .insertInto('refresh_tokens')
    .values({ token_hash: t.hash, session_id: t.sessionId, created_at: t.createdAt, expires_at: t.expiresAt, used_at: null })
    .execute();
}

export async function findRefreshToken(conn: Conn, hash: string) {
  const row = await conn.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.session_id',
      'refresh_tokens.expires_at',
      'refresh_tokens.used_at',
      'sessions.revoked_at',
      'sessions.user_id',
      'sessions.remember_me',
    ])
    .where('refresh_tokens.token_hash', '=', hash)
    .executeTakeFirst();
  return row
    ? {
        sessionId: row.session_id,
        userId: row.user_id,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
        sessionRevokedAt: row.revoked_at,
        rememberMe: Boolean(row.remember_me),
      }
    : undefined;
}

/** Marks a refresh token used; false if it was already used (a concurrent rotation won). */
export async function markRefreshTokenUsed(conn: Conn, hash: string, at: string): Promise<boolean> {
  const result = await conn.db
    .updateTable('refresh_tokens')
    .set({ used_at: at })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Logout: the session's refresh tokens stop working; its access tokens live until they expire. */
export async function burnRefreshTokens(conn: Conn, sessionId: string, at: string): Promise<void> {
  await conn.db
    .updateTable('refresh_tokens')
    .set({ used_at: at })
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .execute();
  await conn.db.updateTable('sessions').set({ expires_at: at }).where('id', '=', sessionId).where('expires_at', '>', at).execute();
}

/** Revokes every live session of a user, except `exceptSessionId` (the caller's own, on a password change). */
export async function revokeUserSessions(conn: Conn, userId: string, at: string, exceptSessionId?: string): Promise<void> {
  let q = conn.db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
