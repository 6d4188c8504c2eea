import type { LocalesConfig } from '../../config/locales-section.js';
import { errors } from '../../errors.js';
import type { FileStore } from '../../media/storage/file-store.js';
import { finishRestoredRows, tablesHoldingContent } from '../../storage/backup/backup-rows.js';
import { inTransaction } from '../../storage/connection.js';
import type { Database } from '../../storage/database.js';
import { syncFieldIndexes } from '../../storage/documents/schema-indexes.js';
import { appliedMigrations, knownMigrations, migrateTo, migrateToLatest } from '../../storage/migrations/index.js';
import type { SecretBox } from '../mfa/secret-box.js';
import type { SchemaRegistry } from '../schemas/schema-registry.js';
import { openBackupCipher, type BackupCipher } from './backup-cipher.js';
import { BACKUP_KIND, BACKUP_VERSION, type BackupHeader } from './backup-format.js';
import { RestoreFiles } from './restore-files.js';
import { RestoreLines, type RestoreProgress } from './restore-lines.js';

export type { RestoreProgress } from './restore-lines.js';

export interface RestoreTarget {
  database: Database;
  files: FileStore;
  /** The restoring instance's box (asked for once the tables exist): secrets from the backup are sealed again with it. */
  secretBox: () => Promise<SecretBox>;
  /** The content model, for the documents' search text (rebuilt, never copied). */
  schemas: SchemaRegistry;
  locales?: LocalesConfig;
  now?: () => Date;
}

export interface RestoreOptions {
  /** The passphrase the backup's secrets were encrypted with; a function is asked only when the backup has secrets. */
  passphrase?: string | (() => Promise<string>);
  /** Restore a backup with secrets without them (the passphrase is lost): as a backup made without secrets restores. */
  withoutSecrets?: boolean;
  onProgress?: (progress: RestoreProgress) => void;
}

export interface RestoreSummary {
  /** Rows restored per table. */
  tables: Record<string, number>;
  /** Media files restored, of which `keptFiles` the store held already with the same bytes. */
  files: number;
  keptFiles: number;
  bytes: number;
  /** `restored`, `left out` (`--without-secrets`), or `none` (a backup made without them). */
  secrets: 'restored' | 'left out' | 'none';
  /** Webhooks turned off because their secret was not restored. */
  webhooksDisabled: number;
  /** Authenticator apps (TOTP) restored without their secret: their codes are refused until set up again. */
  totpWithoutSecret: number;
  /** Files the backup could not read from its store (named by its end line). */
  missingFiles: string[];
}

/**
 * Restores a backup into an empty database of either engine (docs/backup.md, "Restore"): the
 * schema is brought to the backup's migrations, every row is inserted in one transaction with its
 * keys, `seq` and timestamps, search text is rebuilt, media files are put in the store, then the
 * later migrations and the field indexes follow. A restore that fails leaves no row and removes
 * the files it put.
 */
export async function restoreBackup(
  target: RestoreTarget,
  lines: AsyncIterable<string>,
  options: RestoreOptions = {},
): Promise<RestoreSummary> {
  const { database } = target;
  const input = lines[Symbol.asyncIterator]();
  const first = await input.next();
  if (first.done) throw errors.invalidInput('The backup is empty');
  const header = parseHeader(first.value);

  let cipher: BackupCipher | undefined;
  if (header.secrets && options.passphrase !== undefined && !options.withoutSecrets) {
    const passphrase = typeof options.passphrase === 'string' ? options.passphrase : await options.passphrase();
    cipher = await openBackupCipher(passphrase, header.secrets);
  } else if (header.secrets && !options.withoutSecrets) {
    throw errors.invalidInput('The backup holds secrets: give its passphrase, or restore it --without-secrets');
  }

  // The schema: the backup's migrations, which this release must know, in its order.
  const known = knownMigrations(database);
  if (!isPrefix(header.migrations, known)) {
    throw errors.invalidInput(
      'The backup was made by a newer Vellum (its schema has migrations this version does not know): upgrade first',
    );
  }
  const applied = await appliedMigrations(database);
  if (!isPrefix(applied, header.migrations)) {
    throw errors.conflict(
      'The database has a newer schema than the backup: restore into a new, empty database (the restore creates its tables)',
    );
  }
  if (applied.length < header.migrations.length) await migrateTo(database, header.migrations[header.migrations.length - 1]!);
  const held = await tablesHoldingContent(database, Object.keys(header.contents.tables));
  if (held.length > 0)
    throw errors.conflict(`The database is not empty (${held.join(', ')} hold rows): restore into a new, empty database`);

  const secretBox = await target.secretBox();
  const files = new RestoreFiles(target.files);
  const now = (target.now?.() ?? new Date()).toISOString();
  let summary: RestoreSummary;
  try {
    summary = await inTransaction(database, async (conn) => {
      const restore = new RestoreLines(conn, header, { ...target, secretBox, cipher, files, now, onProgress: options.onProgress });
      let n = 1;
      for (let next = await input.next(); !next.done; next = await input.next()) await restore.apply(next.value, ++n);
      const result = restore.finish();
      await finishRestoredRows(conn);
      return { ...result, secrets: header.secrets ? (cipher ? 'restored' : 'left out') : 'none' };
    });
  } catch (err) {
    await target.files.delete(files.created).catch(() => undefined);
    throw err;
  } finally {
    await files.close();
  }
  await migrateToLatest(database);
  await syncFieldIndexes(database, target.schemas.indexSpecs(target.locales));
  return summary;
}

function parseHeader(text: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(text) as Partial<BackupHeader>;
  } catch {
    throw errors.invalidInput('This is not a Vellum backup (its first line is not JSON)');
  }
  if (header?.kind !== BACKUP_KIND) throw errors.invalidInput('This is not a Vellum backup (its first line is no backup header)');
  if (header.version !== BACKUP_VERSION)
    throw errors.invalidInput(`The backup has version ${String(header.version)}; this Vellum reads version ${BACKUP_VERSION}`);
  const valid =
    Array.isArray(header.migrations) &&
    header.migrations.every((m) => typeof m === 'string') &&
    typeof header.contents === 'object' &&
    header.contents !== null &&
    typeof header.contents.tables === 'object';
  if (!valid) throw errors.invalidInput('The backup header is damaged');
  return header as BackupHeader;
}

const isPrefix = (a: readonly string[], b: readonly string[]) => a.length <= b.length && a.every((m, i) => b[i] === m);
