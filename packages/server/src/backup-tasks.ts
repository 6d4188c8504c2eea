import { createInterface } from 'node:readline';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { VellumConfig } from './config/types.js';
import type { BackupCounts } from './domain/backup/backup-format.js';
import { restoreBackup, type RestoreProgress, type RestoreSummary } from './domain/backup/restore-backup.js';
import { writeBackup, type BackupProgress } from './domain/backup/write-backup.js';
import { loadSecretBox } from './domain/mfa/secret-box.js';
import { errors } from './errors.js';
import { SchemaRegistry } from './domain/schemas/schema-registry.js';
import { mediaStorage, openFileStore } from './media/storage/open-file-store.js';
import { openDatabase, type Database } from './storage/database.js';
import type { FileStore } from './media/storage/file-store.js';

export type { BackupCounts, BackupProgress, RestoreProgress, RestoreSummary };

/**
 * `vellum backup` and `vellum restore` on the configured database and media store, with no server
 * listening (docs/backup.md). A backup may run beside a serving instance: it reads a snapshot.
 */

async function withStores<T>(config: VellumConfig, task: (database: Database, files: FileStore) => Promise<T>): Promise<T> {
  const database = await openDatabase(config.database.url, config.database);
  try {
    const files = await openFileStore(mediaStorage(config.media));
    try {
      return await task(database, files);
    } finally {
      await files.close();
    }
  } finally {
    await database.close();
  }
}

export interface BackupTaskOptions {
  /** Include the secrets, encrypted with this passphrase. */
  passphrase?: string;
  onProgress?: (progress: BackupProgress) => void;
}

/** Writes a backup of the configured instance to `out` (NDJSON; the caller gzips it if it likes). */
export function backupInstance(config: VellumConfig, out: Writable, options: BackupTaskOptions = {}): Promise<BackupCounts> {
  return withStores(config, async (database, files) => {
    const secretBox = options.passphrase === undefined ? undefined : await loadSecretBox(database, config);
    return writeBackup({ database, files, secretBox }, out, options);
  });
}

export interface RestoreTaskOptions {
  /** The backup's passphrase; a function is called only when the backup holds secrets. */
  passphrase?: string | (() => Promise<string>);
  withoutSecrets?: boolean;
  onProgress?: (progress: RestoreProgress) => void;
}

/** Restores a backup (plain or gzipped NDJSON) into the configured database, which must be empty. */
export function restoreInstance(config: VellumConfig, input: Readable, options: RestoreTaskOptions = {}): Promise<RestoreSummary> {
  return withStores(config, async (database, files) => {
    const secretBox = () => loadSecretBox(database, config);
    const lines = createInterface({ input: await gunzipped(input), crlfDelay: Infinity });
    try {
      return await restoreBackup(
        { database, files, secretBox, schemas: new SchemaRegistry(config.schemas), locales: config.locales },
        lines,
        options,
      );
    } catch (err) {
      // A gzipped file cut short or changed fails in zlib (Z_BUF_ERROR, Z_DATA_ERROR): a damaged backup, as a plain one is.
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && code.startsWith('Z_')) {
        throw errors.invalidInput(`The backup is damaged or cut short (gzip: ${(err as Error).message})`);
      }
      throw err;
    }
  });
}

/** The input as it is, or inflated when it starts with the gzip magic bytes (RFC 1952 §2.3.1). */
async function gunzipped(input: Readable): Promise<Readable> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  const whole = Readable.from(all());
  if (first.done || first.value.length < 2 || first.value[0] !== 0x1f || first.value[1] !== 0x8b) return whole;
  const inflate = createGunzip();
  // An error on either side ends the other with it, so reading the lines fails instead of hanging.
  pipeline(whole, inflate).catch(() => undefined);
  return inflate;
}
