import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { Tables } from '../tables.js';

/**
 * Per-field indexes (`vx_<type>_<field>`) hold absent values where ordered lists put them
 * (`Dialect.nullsOrder`: first ascending, last descending). PostgreSQL's indexes made before put
 * them last ascending, which matched neither direction of a list ordered by the field, so such a
 * list read and sorted every row of the type. Where the order clause changes an index, the old
 * ones are dropped here; start-up syncs the schemas' indexes right after migrating
 * (storage/schema-indexes.ts) and creates them again in the new order.
 */
export function fieldIndexNullOrder(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect.nullsOrder('asc') === '') return;
      const names = await dialect.indexNames(db as Kysely<Tables>, 'documents');
      for (const name of names.filter((n) => n.startsWith('vx_'))) {
        await sql`drop index if exists ${sql.id(name)}`.execute(db);
      }
    },
  };
}
