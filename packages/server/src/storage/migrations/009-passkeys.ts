import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys (WebAuthn): each user's credentials (id and public key as base64url, the last sign
 * counter seen) and the server-side challenges, single use, looked up by the challenge itself.
 */
export function passkeys(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('passkey_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull())
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('passkey_credentials_user').on('passkey_credentials').column('user_id').execute();
      await db.schema
        .createTable('passkey_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
    },
  };
}
