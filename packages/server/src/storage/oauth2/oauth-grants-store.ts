import type { Selectable } from 'kysely';
import type { Conn } from '../connection.js';
import { PRINCIPAL_USER_COLUMNS, toPrincipalUser, type PrincipalUser } from '../identity/principal-user.js';
import type { OAuthGrantsTable } from './oauth-tables.js';
import { preparedQuery } from '../prepared-query.js';
import { spendTokenOnce } from '../identity/spend-token-once.js';

/** One approval of a client by a user (docs/oauth2.md, "Grants"). */
export interface StoredGrant {
  id: string;
  userId: string;
  clientId: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A grant joined with the live state of its user: what every request with an OAuth access token checks. */
export interface GrantPrincipalRow extends PrincipalUser {
  grantId: string;
  clientId: string;
  scope: string;
  revokedAt: string | null;
}

export async function insertGrant(conn: Conn, g: StoredGrant): Promise<void> {
  await conn.db
    .insertInto('oauth_grants')
    .values({
      id: g.id,
      user_id: g.userId,
      client_id: g.clientId,
      scope: g.scope,
      created_at: g.createdAt,
      last_used_at: g.lastUsedAt,
      revoked_at: g.revokedAt,
    })
    .execute();
}

// Run for every request with an OAuth access token: prepared once.
const grantPrincipal = preparedQuery(({ db }, param: (name: 'grantId') => string) =>
  db
    .selectFrom('oauth_grants')
    .innerJoin('users', 'users.id', 'oauth_grants.user_id')
    .select([
      'oauth_grants.id as grant_id',
      'oauth_grants.client_id',
      'oauth_grants.scope',
      'oauth_grants.revoked_at',
      ...PRINCIPAL_USER_COLUMNS,
    ])
    .where('oauth_grants.id', '=', param('grantId')),
);

export async function findGrantPrincipal(conn: Conn, grantId: string): Promise<GrantPrincipalRow | undefined> {
  const [row] = await grantPrincipal(conn, { grantId });
  if (!row) return undefined;
  return {
    grantId: row.grant_id,
    clientId: row.client_id,
    scope: row.scope,
    revokedAt: row.revoked_at,
    ...toPrincipalUser(row),
  };
}

export async function findGrant(conn: Conn, id: string): Promise<StoredGrant | undefined> {
  const r = await conn.db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst();
  return r && toGrant(r);
}

/** The user's grants that are not revoked, newest first. */
export async function listLiveGrants(conn: Conn, userId: string): Promise<StoredGrant[]> {
  const rows = await conn.db
    .selectFrom('oauth_grants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toGrant);
}

/** Revokes the grant (idempotent): its refresh tokens stop working, and its access tokens with it. */
export async function revokeGrant(conn: Conn, id: string, at: string): Promise<boolean> {
  const r = await conn.db
    .updateTable('oauth_grants')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function touchGrant(conn: Conn, id: string, at: string): Promise<void> {
  await conn.db.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', id).execute();
}

export interface StoredOAuthRefreshToken {
  hash: string;
  grantId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export async function insertOAuthRefreshToken(conn: Conn, t: StoredOAuthRefreshToken): Promise<void> {
  await conn.db
    .insertInto('oauth_refresh_tokens')
    .values({ token_hash: t.hash, grant_id: t.grantId, created_at: t.createdAt, expires_at: t.expiresAt, used_at: t.usedAt })
    .execute();
}

export async function findOAuthRefreshToken(conn: Conn, hash: string): Promise<StoredOAuthRefreshToken | undefined> {
  const r = await conn.db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  return r && { hash: r.token_hash, grantId: r.grant_id, createdAt: r.created_at, expiresAt: r.expires_at, usedAt: r.used_at };
}

/** Spends a refresh token; false when it was spent already (rotation raced, or the token leaked). */
export function spendOAuthRefreshToken(conn: Conn, hash: string, at: string): Promise<boolean> {
  return spendTokenOnce(conn, 'oauth_refresh_tokens', hash, at);
}

function toGrant(r: Selectable<OAuthGrantsTable>): StoredGrant {
  return {
    id: r.id,
    userId: r.user_id,
    clientId: r.client_id,
    scope: r.scope,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}
