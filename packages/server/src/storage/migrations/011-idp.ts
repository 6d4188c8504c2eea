import type { Kysely, Migration } from 'kysely';

/**
 * Identity-provider sign-in: provider accounts linked to users (one per issuer and subject, one
 * per user and provider) and the pending authorization requests, looked up by the hash of their
 * `state`, single use (docs/api.md, "Identity provider").
 */
export function idp(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idp_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('idp_links_account', ['issuer', 'subject'])
        .addUniqueConstraint('idp_links_user_provider', ['user_id', 'provider'])
        .execute();
      await db.schema
        .createTable('idp_states')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('idp_states_expiry').on('idp_states').column('expires_at').execute();
    },
  };
}
