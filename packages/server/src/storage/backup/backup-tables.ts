import type { Tables } from '../tables.js';

/**
 * What a backup holds of each table (docs/backup.md): the tables copied, in the order a restore
 * inserts them (every table after the tables its foreign keys name), and the tables left out with
 * the reason. A test compares both lists with the tables and columns of a migrated database on
 * each engine, so a migration that adds a table or a column has to say here what becomes of it.
 */

/**
 * How a table's rows travel:
 * - `plain`: always, as stored;
 * - `sealed`: only in a backup with secrets, and then encrypted with the passphrase;
 * - `split`: always; in a backup without secrets its `secretColumns` are null, in one with
 *   secrets the whole rows are encrypted with the passphrase, the secret columns opened.
 */
export type Travel = 'plain' | 'sealed' | 'split';

export interface BackupTable<T extends keyof Tables = keyof Tables> {
  name: T;
  /** The primary key: rows are read in its order, page by page (keyset). */
  key: readonly (keyof Tables[T] & string)[];
  /** Every column the table has on both engines (PostgreSQL's `search` columns are rebuilt, not copied). */
  columns: readonly (keyof Tables[T] & string)[];
  /** Columns holding JSON (jsonb on PostgreSQL, text on SQLite): values in the file, not JSON text. */
  json?: readonly (keyof Tables[T] & string)[];
  /** Columns PostgreSQL answers as strings (bigint): numbers in the file. */
  bigint?: readonly (keyof Tables[T] & string)[];
  travel: Travel;
  /** Values sealed by the instance's secret box (docs/mfa.md): opened into an encrypted line, sealed again by the restoring instance. */
  secretColumns?: readonly (keyof Tables[T] & string)[];
  /** Only the rows whose `key` column holds one of these values (the instance table: settings, not generated keys). */
  onlyKeys?: readonly string[];
}

const table = <T extends keyof Tables>(t: BackupTable<T>): BackupTable => t as unknown as BackupTable;

export const BACKUP_TABLES: readonly BackupTable[] = [
  table({ name: 'instance', key: ['key'], columns: ['key', 'value'], travel: 'plain', onlyKeys: ['settings'] }),
  table({
    name: 'users',
    key: ['id'],
    columns: [
      'id',
      'username',
      'email',
      'password_hash',
      'first_name',
      'last_name',
      'role',
      'permissions',
      'active',
      'created_at',
      'updated_at',
      'last_login',
      'mfa_enabled',
      'preferences',
    ],
    travel: 'plain',
  }),
  table({
    name: 'api_tokens',
    key: ['id'],
    columns: ['id', 'name', 'token_hash', 'permissions', 'created_by', 'created_at', 'expires_at', 'last_used_at'],
    travel: 'plain',
  }),
  table({
    name: 'known_devices',
    key: ['user_id', 'device_hash'],
    columns: ['user_id', 'device_hash', 'created_at', 'last_seen_at', 'expires_at'],
    travel: 'plain',
  }),
  table({
    name: 'mfa_methods',
    key: ['user_id', 'method'],
    columns: ['user_id', 'method', 'secret_enc', 'last_step', 'created_at', 'enabled_at'],
    travel: 'split',
    secretColumns: ['secret_enc'],
  }),
  table({ name: 'mfa_backup_codes', key: ['code_hash'], columns: ['code_hash', 'user_id', 'created_at', 'used_at'], travel: 'plain' }),
  table({
    name: 'trusted_devices',
    key: ['id'],
    columns: ['id', 'user_id', 'device_hash', 'device_id_enc', 'name', 'created_at', 'last_used_at', 'expires_at'],
    travel: 'sealed',
    secretColumns: ['device_id_enc'],
  }),
  table({
    name: 'passkey_credentials',
    key: ['id'],
    columns: ['id', 'user_id', 'public_key', 'counter', 'transports', 'device_type', 'backed_up', 'name', 'created_at', 'last_used_at'],
    bigint: ['counter'],
    travel: 'sealed',
  }),
  table({
    name: 'idp_links',
    key: ['id'],
    columns: ['id', 'provider', 'issuer', 'subject', 'user_id', 'email', 'created_at'],
    travel: 'plain',
  }),
  table({
    name: 'oauth_grants',
    key: ['id'],
    columns: ['id', 'user_id', 'client_id', 'scope', 'created_at', 'last_used_at', 'revoked_at'],
    travel: 'plain',
  }),
  table({
    name: 'media',
    key: ['id'],
    columns: [
      'id',
      'filename',
      'original_filename',
      'mime_type',
      'size',
      'sha256',
      'width',
      'height',
      'alt',
      'title',
      'variants',
      'placeholder',
      'dominant_color',
      'created_at',
      'updated_at',
      'created_by',
      'focal_x',
      'focal_y',
    ],
    json: ['variants'],
    bigint: ['size'],
    travel: 'plain',
  }),
  table({
    name: 'documents',
    key: ['seq'],
    columns: ['seq', 'id', 'type', 'status', 'rev', 'created_at', 'updated_at', 'created_by', 'updated_by', 'data'],
    json: ['data'],
    bigint: ['seq'],
    travel: 'plain',
  }),
  table({
    name: 'document_revisions',
    key: ['doc_id', 'kind', 'rev'],
    columns: ['doc_id', 'kind', 'rev', 'status', 'data', 'updated_at', 'updated_by'],
    json: ['data'],
    travel: 'plain',
  }),
  table({
    name: 'document_drafts',
    key: ['id'],
    columns: ['id', 'seq', 'type', 'rev', 'base_rev', 'created_at', 'created_by', 'updated_at', 'updated_by', 'data'],
    json: ['data'],
    bigint: ['seq'],
    travel: 'plain',
  }),
  table({ name: 'document_refs', key: ['source_id', 'path'], columns: ['source_id', 'target_id', 'path'], travel: 'plain' }),
  table({ name: 'document_draft_refs', key: ['source_id', 'path'], columns: ['source_id', 'target_id', 'path'], travel: 'plain' }),
  table({ name: 'document_media', key: ['source_id', 'path'], columns: ['source_id', 'path', 'media_id'], travel: 'plain' }),
  table({ name: 'document_draft_media', key: ['source_id', 'path'], columns: ['source_id', 'path', 'media_id'], travel: 'plain' }),
  table({
    name: 'schedules',
    key: ['id'],
    columns: ['id', 'type', 'document_id', 'action', 'at', 'status', 'error', 'created_by', 'created_at', 'done_at', 'claimed_until'],
    travel: 'plain',
  }),
  table({
    name: 'webhooks',
    key: ['id'],
    columns: [
      'id',
      'name',
      'url',
      'events',
      'types',
      'active',
      'secret_enc',
      'consecutive_failures',
      'disabled_at',
      'disabled_reason',
      'created_at',
      'updated_at',
      'created_by',
    ],
    travel: 'split',
    secretColumns: ['secret_enc'],
  }),
  table({
    name: 'webhook_deliveries',
    key: ['id'],
    columns: [
      'id',
      'webhook_id',
      'event_id',
      'event_type',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'claimed_until',
      'last_status_code',
      'last_duration_ms',
      'last_error',
      'created_at',
      'delivered_at',
    ],
    travel: 'plain',
  }),
  table({
    name: 'audit_log',
    key: ['id'],
    columns: ['id', 'type', 'at', 'actor_id', 'actor_kind', 'ip', 'user_agent', 'target', 'details'],
    json: ['details'],
    travel: 'plain',
  }),
];

/** Tables a backup leaves out, and why (docs/backup.md, "What a backup holds"). */
export const NOT_BACKED_UP: Readonly<Record<string, string>> = {
  sessions: 'signed-in state: everyone signs in again after a restore',
  refresh_tokens: 'signed-in state',
  oauth_refresh_tokens: 'signed-in state: OAuth clients ask for a new authorization',
  password_tokens: 'reset and invitation links last hours; they are asked for again',
  mfa_tokens: 'a sign-in in progress lasts minutes',
  mfa_email_codes: 'a code lasts minutes',
  passkey_challenges: 'a ceremony in progress lasts minutes',
  idp_states: 'a sign-in in progress lasts minutes',
  oauth_device_codes: 'a device flow in progress lasts minutes',
  oauth_auth_codes: 'an authorization code lasts a minute',
  document_counts: 'kept by triggers: the restored documents count themselves',
  media_transforms: 'rendered images are a cache: they are rendered again when asked for',
};

export const backupTable = (name: string): BackupTable | undefined => BACKUP_TABLES.find((t) => t.name === name);
