import type { Kysely, Migration } from 'kysely';

/**
 * Multi-factor sign-in (docs/api.md, "Multi-factor authentication"): the user's methods (TOTP
 * secrets encrypted at rest), backup codes and the short-lived MFA and setup tokens (both stored
 * as SHA-256), and trusted devices (found by SHA-256 of the `deviceId`, which is kept
 * encrypted for the owner's list). `users.mfa_enabled` mirrors
 * "has at least one enabled method" so user reads need no join.
 */
export function mfa(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('mfa_methods')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('secret_enc', 'text')
        .addColumn('last_step', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('enabled_at', 'text')
        .addPrimaryKeyConstraint('mfa_methods_pk', ['user_id', 'method'])
        .execute();
      await db.schema
        .createTable('mfa_backup_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('mfa_backup_codes_user').on('mfa_backup_codes').column('user_id').execute();
      await db.schema
        .createTable('mfa_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'text')
        .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('mfa_tokens_user').on('mfa_tokens').column('user_id').execute();
      await db.schema
        .createTable('trusted_devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('device_id_enc', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('trusted_devices_user_device')
        .on('trusted_devices')
        .columns(['user_id', 'device_hash'])
        .unique()
        .execute();
    },
  };
}
