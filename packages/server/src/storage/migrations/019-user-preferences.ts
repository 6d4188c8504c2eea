import type { Kysely, Migration } from 'kysely';

/**
 * The user's own studio preferences (docs/api.md, "Preferences"): one JSON object per user, as
 * text on both engines (as `permissions` is), `{}` until the user saves one. Only that user reads
 * or replaces it (`GET /auth/me`, `PUT /auth/me/preferences`).
 */
export function userPreferences(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('preferences', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  };
}
