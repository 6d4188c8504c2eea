import type { Conn } from '../connection.js';
import { newestFirstPage } from '../newest-first-page.js';
import type { ApiTokensTable } from '../tables.js';

export interface StoredApiToken {
  id: string;
  name: string;
  tokenHash: string;
  permissions: string[];
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

function toToken(row: ApiTokensTable): StoredApiToken {
  return {
    id: row.id,
    name: row.name,
    tokenHash: row.token_hash,
    permissions: JSON.parse(row.permissions) as string[],
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function insertApiToken(conn: Conn, t: StoredApiToken): Promise<void> {
  await conn.db
    .insertInto('api_tokens')
    .values({
      id: t.id,
      name: t.name,
      token_hash: t.tokenHash,
      permissions: JSON.stringify(t.permissions),
      created_by: t.createdBy,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      last_used_at: t.lastUsedAt,
    })
    .execute();
}

/** The one indexed lookup behind every API-token request (unique index on token_hash). */
export async function findApiTokenByHash(conn: Conn, hash: string): Promise<StoredApiToken | undefined> {
  const row = await conn.db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  return row ? toToken(row) : undefined;
}

/** Newest first, as the other management lists. */
export function listApiTokens(conn: Conn, limit: number, offset: number): Promise<{ rows: StoredApiToken[]; total: number }> {
  return newestFirstPage(conn, 'api_tokens', limit, offset, toToken);
}

export async function deleteApiToken(conn: Conn, id: string): Promise<StoredApiToken | undefined> {
  const row = await conn.db.deleteFrom('api_tokens').where('id', '=', id).returningAll().executeTakeFirst();
  return row ? toToken(row) : undefined;
}

export async function touchApiToken(conn: Conn, id: string, at: string): Promise<void> {
  await conn.db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** By id: what a scheduled action created with a token runs as (docs/schedules.md). */
export async function findApiTokenById(conn: Conn, id: string): Promise<StoredApiToken | undefined> {
  const row = await conn.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toToken(row) : undefined;
}
