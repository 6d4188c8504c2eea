import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Conn } from '../connection.js';
import type { Dialect } from '../dialect.js';
import { initial } from './001-initial.js';
import { passwordTokens } from './002-password-tokens.js';
import { auditLog } from './003-audit-log.js';
import { revisionsExcludeCurrent } from './004-revisions-exclude-current.js';
import { media } from './005-media.js';
import { knownDevices } from './006-known-devices.js';
import { searchUnaccent } from './007-search-unaccent.js';
import { mfa } from './008-mfa.js';
import { passkeys } from './009-passkeys.js';
import { emailCodes } from './010-email-codes.js';
import { idp } from './011-idp.js';
import { oauth2 } from './012-oauth2.js';
import { webhooks } from './013-webhooks.js';
import { documentCounts } from './014-document-counts.js';
import { fieldIndexNullOrder } from './015-field-index-null-order.js';
import { documentDrafts } from './016-document-drafts.js';
import { schedules } from './017-schedules.js';
import { mediaTransforms } from './018-media-transforms.js';
import { userPreferences } from './019-user-preferences.js';

/** Migrations in order; names never change once released. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-password-tokens': passwordTokens(),
    '003-audit-log': auditLog(dialect),
    '004-revisions-exclude-current': revisionsExcludeCurrent(),
    '005-media': media(dialect),
    '006-known-devices': knownDevices(),
    '007-search-unaccent': searchUnaccent(dialect),
    '008-mfa': mfa(),
    '009-passkeys': passkeys(),
    '010-email-codes': emailCodes(),
    '011-idp': idp(),
    '012-oauth2': oauth2(),
    '013-webhooks': webhooks(),
    '014-document-counts': documentCounts(dialect),
    '015-field-index-null-order': fieldIndexNullOrder(dialect),
    '016-document-drafts': documentDrafts(dialect),
    '017-schedules': schedules(),
    '018-media-transforms': mediaTransforms(),
    '019-user-preferences': userPreferences(),
  };
}

/**
 * Brings the schema up to date. On PostgreSQL Kysely's migrator takes an advisory lock, so several
 * nodes starting together run each migration once. Answers the names of the migrations it
 * applied, in order (none when the database was up to date).
 */
export async function migrateToLatest({ db, dialect }: Conn): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({ db, provider });
  let { error, results } = await migrator.migrateToLatest();
  // SQLite has no advisory lock: when another process on the same file migrated first, the
  // second attempt sees its work as done.
  for (let attempt = 0; error && !dialect.migrationsLocked && attempt < 3; attempt++) {
    await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this release has that the database has not run yet (`vellum doctor`). */
export async function pendingMigrations({ db, dialect }: Conn): Promise<{ applied: number; pending: string[] }> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const all = await new Migrator({ db, provider }).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).length,
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}

/** The names of the migrations the database has run, in order (what a backup records of its schema). */
export async function appliedMigrations({ db, dialect }: Conn): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/** The names of every migration this release has, in order. */
export const knownMigrations = ({ dialect }: Conn): string[] => Object.keys(migrations(dialect));

/**
 * Runs the migrations up to and including `name` and no further: a restore loads rows into the
 * schema they were read from, then the later migrations bring them up to date as for any upgrade.
 */
export async function migrateTo({ db, dialect }: Conn, name: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const { error, results } = await new Migrator({ db, provider }).migrateTo(name);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message}`, { cause: error });
  }
}
