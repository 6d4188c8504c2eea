import type { Kysely, Migration } from 'kysely';

/**
 * Email one-time codes (docs/api.md, "Multi-factor authentication"): at most one live code per
 * user and purpose (`login` or `setup`), kept as SHA-256 with the user id; a new code replaces
 * the previous one, and a used code keeps its row with `used_at` set until then.
 */
export function emailCodes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mfa_email_codes')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addPrimaryKeyConstraint('mfa_email_codes_pk', ['user_id', 'purpose'])
        .execute();
    },
  };
}
