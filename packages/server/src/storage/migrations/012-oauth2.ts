import type { Kysely, Migration } from 'kysely';

/**
 * The authorization server (docs/oauth2.md). Every step of every flow is a row here, so any node
 * answers any step:
 * - `oauth_grants`: one per approval (a device approved, an authorization code issued); revoking
 *   it stops its refresh tokens and, through the `gid` claim, its access tokens at once.
 * - `oauth_refresh_tokens`: SHA-256 only, rotated on use; a used one presented again revokes its grant.
 * - `oauth_device_codes`: RFC 8628 requests keyed by the normalised user code, the device code as SHA-256.
 * - `oauth_auth_codes`: RFC 6749 §4.1 codes as SHA-256, bound to client, redirect URI and PKCE challenge.
 */
export function oauth2(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_grants_user').on('oauth_grants').columns(['user_id', 'created_at']).execute();
      await db.schema
        .createTable('oauth_refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
      await db.schema
        .createTable('oauth_device_codes')
        .addColumn('user_code', 'text', (c) => c.primaryKey())
        .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('interval_s', 'integer', (c) => c.notNull())
        .addColumn('last_polled_at', 'text')
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('granted_scope', 'text')
        .addColumn('grant_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_device_codes_expiry').on('oauth_device_codes').column('expires_at').execute();
      await db.schema
        .createTable('oauth_auth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_auth_codes_expiry').on('oauth_auth_codes').column('expires_at').execute();
    },
  };
}
