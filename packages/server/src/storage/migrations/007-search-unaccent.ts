import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Search folds accents on every database ("creme" finds "Crème"); see `Dialect.migrateSearchFolding`. */
export function searchUnaccent(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dialect.migrateSearchFolding(db);
    },
  };
}
