import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { errors } from '../../errors.js';
import type { FileStore } from '../../media/storage/file-store.js';
import { countBackupRows, readBackupRows, type BackupRow } from '../../storage/backup/backup-rows.js';
import { BACKUP_TABLES, type BackupTable } from '../../storage/backup/backup-tables.js';
import type { Database } from '../../storage/database.js';
import { appliedMigrations, knownMigrations } from '../../storage/migrations/index.js';
import type { SecretBox } from '../mfa/secret-box.js';
import { newBackupCipher, type BackupCipher } from './backup-cipher.js';
import { BACKUP_KIND, BACKUP_VERSION, FILE_CHUNK_BYTES, type BackupCounts, type BackupHeader, type BackupLine } from './backup-format.js';
import { mediaFiles, sealedLabel, secretPart, type MediaFile } from './backup-rules.js';

export interface BackupSource {
  database: Database;
  files: FileStore;
  /** The instance's secret box: needed only with a passphrase, to open the secrets it sealed. */
  secretBox?: SecretBox;
  now?: () => Date;
}

export type BackupProgress =
  { phase: 'rows'; table: string; done: number; total: number } | { phase: 'files'; done: number; total: number; bytes: number };

export interface BackupOptions {
  /** With a passphrase the file holds the secrets (MFA, passkeys, trusted devices, webhook secrets), encrypted with it. */
  passphrase?: string;
  onProgress?: (progress: BackupProgress) => void;
}

/**
 * Writes a backup of the instance to `out` (docs/backup.md): every table of backup-tables.ts read
 * inside one snapshot, so the rows agree with each other while the site goes on serving, then the
 * media files the rows name. Answers what was written (the end line's counts).
 */
export async function writeBackup(source: BackupSource, out: Writable, options: BackupOptions = {}): Promise<BackupCounts> {
  const { database } = source;
  const known = knownMigrations(database);
  const secrets = options.passphrase === undefined ? undefined : await newBackupCipher(options.passphrase);
  if (secrets && !source.secretBox) throw new Error('writeBackup: a passphrase needs the secret box');
  const write = lineWriter(out);
  const counts: BackupCounts = { tables: {}, sealed: 0, files: 0, bytes: 0, missingFiles: [] };
  const files: MediaFile[] = [];

  await database.snapshot(async (conn) => {
    const applied = await appliedMigrations(conn);
    const pending = known.filter((m) => !applied.includes(m));
    if (applied.length === 0) throw errors.invalidInput('The database has no tables yet: there is nothing to back up');
    if (pending.length > 0)
      throw errors.invalidInput(`The database is not migrated (${pending.join(', ')} pending): run vellum migrate first`);
    const tables = BACKUP_TABLES.filter((t) => secrets || t.travel !== 'sealed');
    const totals: Record<string, number> = {};
    for (const t of tables) totals[t.name] = await countBackupRows(conn, t);
    const header: BackupHeader = {
      kind: BACKUP_KIND,
      version: BACKUP_VERSION,
      createdAt: (source.now?.() ?? new Date()).toISOString(),
      engine: database.engine,
      migrations: applied,
      ...(secrets ? { secrets: secrets.header } : {}),
      contents: { tables: totals, media: totals.media ?? 0 },
    };
    await write(header);
    for (const t of tables) {
      counts.tables[t.name] = 0;
      for await (const rows of readBackupRows(conn, t)) {
        if (t.name === 'media') files.push(...rows.flatMap(mediaFiles));
        await writeRows(t, rows, secrets?.cipher, source.secretBox, write, counts);
        counts.tables[t.name] += rows.length;
        options.onProgress?.({ phase: 'rows', table: t.name, done: counts.tables[t.name], total: totals[t.name] ?? 0 });
      }
    }
  });

  for (const file of files) {
    await writeFile(source.files, file, write, counts);
    options.onProgress?.({ phase: 'files', done: counts.files + counts.missingFiles.length, total: files.length, bytes: counts.bytes });
  }
  await write({ kind: 'end', counts });
  return counts;
}

/**
 * One page of a table: as stored; or, for the secrets, opened from the instance's box and sealed
 * with the passphrase (a `sealed` table whole, a `split` table's secret columns with their key,
 * before the page itself with those columns null).
 */
async function writeRows(
  table: BackupTable,
  rows: BackupRow[],
  cipher: BackupCipher | undefined,
  box: SecretBox | undefined,
  write: (line: BackupLine) => Promise<void>,
  counts: BackupCounts,
): Promise<void> {
  if (table.travel !== 'plain' && cipher && box) {
    const secret = table.travel === 'sealed' ? rows : rows.map((row) => secretPart(table, row));
    for (const row of secret) for (const c of table.secretColumns ?? []) if (typeof row[c] === 'string') row[c] = box.open(row[c]);
    await write({ kind: 'sealed', table: table.name, ...cipher.seal(sealedLabel(table.name, counts.sealed), JSON.stringify(secret)) });
    counts.sealed++;
    if (table.travel === 'sealed') return;
  }
  if (table.travel === 'split')
    rows = rows.map((row) => ({ ...row, ...Object.fromEntries((table.secretColumns ?? []).map((c) => [c, null])) }));
  await write({ kind: 'rows', table: table.name, rows });
}

/** A media file as `file`, `file-data` lines of FILE_CHUNK_BYTES and `file-end` with its SHA-256; a missing one is counted. */
async function writeFile(
  store: FileStore,
  file: MediaFile,
  write: (line: BackupLine) => Promise<void>,
  counts: BackupCounts,
): Promise<void> {
  const stored = await store.get(file.key);
  if (!stored) {
    counts.missingFiles.push(file.key);
    return;
  }
  await write({ kind: 'file', key: file.key, contentType: file.contentType, size: stored.size });
  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    await write({ kind: 'file-data', data: Buffer.concat(pending).toString('base64') });
    pending = [];
    pendingBytes = 0;
  };
  for await (const chunk of stored.body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    counts.bytes += chunk.length;
    for (let at = 0; at < chunk.length;) {
      const part = chunk.subarray(at, at + FILE_CHUNK_BYTES - pendingBytes);
      pending.push(part);
      pendingBytes += part.length;
      at += part.length;
      if (pendingBytes === FILE_CHUNK_BYTES) await flush();
    }
  }
  await flush();
  await write({ kind: 'file-end', sha256: hash.digest('hex') });
  counts.files++;
}

/** Writes one NDJSON line, waiting while the stream's buffer is full (a slow disk or pipe). */
function lineWriter(out: Writable): (line: BackupLine) => Promise<void> {
  return async (line) => {
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  };
}
