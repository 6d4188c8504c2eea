import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The audit log: who did what, when, from where. Append-only. */
export function auditLog(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('target', 'text')
        .addColumn('details', sql.raw(dialect.jsonColumnType))
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
      await db.schema.createIndex('audit_log_type_at').on('audit_log').columns(['type', 'at', 'id']).execute();
    },
  };
}
