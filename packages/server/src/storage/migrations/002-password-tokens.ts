import type { Kysely, Migration } from 'kysely';

/** Single-use tokens that set a password: reset links and invitations (stored as SHA-256). */
export function passwordTokens(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('password_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('password_tokens_user').on('password_tokens').column('user_id').execute();
    },
  };
}
