import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Users, sessions, tokens, documents with revisions, references and full-text search. */
export function initial(dialect: Dialect): Migration {
  const json = dialect.jsonColumnType;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('instance')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_login', 'text')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();

      await db.schema
        .createTable('documents')
        // `seq` orders rows that share a timestamp and lets page queries stay on the indexes.
        .addColumn('seq', dialect.seqColumn.type, dialect.seqColumn.define)
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('updated_by', 'text')
        .addColumn('data', sql.raw(json), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('documents_type_created').on('documents').columns(['type', 'created_at', 'seq']).execute();
      await db.schema
        .createIndex('documents_type_status_created')
        .on('documents')
        .columns(['type', 'status', 'created_at', 'seq'])
        .execute();
      await db.schema.createIndex('documents_type_updated').on('documents').columns(['type', 'updated_at', 'seq']).execute();

      await db.schema
        .createTable('document_revisions')
        .addColumn('doc_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('data', sql.raw(json), (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addPrimaryKeyConstraint('document_revisions_pk', ['doc_id', 'rev'])
        .execute();

      await db.schema
        .createTable('document_refs')
        .addColumn('source_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_refs_pk', ['source_id', 'path'])
        .execute();
      await db.schema.createIndex('document_refs_target').on('document_refs').column('target_id').execute();

      await dialect.createSearchStorage(db);
    },
  };
}
