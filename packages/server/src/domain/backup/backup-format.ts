import type { BackupRow } from '../../storage/backup/backup-rows.js';

/**
 * The lines of a `vellum backup` file (NDJSON, docs/backup.md, "The file"): the header, the rows
 * table by table in restore order, the media files, and the end line, whose absence tells a file
 * cut short. Every line is one JSON object with a `kind`.
 */
export const BACKUP_KIND = 'vellum-backup';
export const BACKUP_VERSION = 1;

/** Bytes of a file per `file-data` line, before base64. */
export const FILE_CHUNK_BYTES = 256 * 1024;

export interface BackupContents {
  /** Rows per table, of the tables the file holds. */
  tables: Record<string, number>;
  /** Media records: each brings its original and its variants. */
  media: number;
}

/** How the secrets of the file are encrypted: AES-256-GCM under a key scrypt derives from the passphrase (RFC 7914). */
export interface SecretsHeader {
  cipher: 'aes-256-gcm';
  kdf: 'scrypt';
  salt: string;
  N: number;
  r: number;
  p: number;
  /** A known text sealed with the key: a wrong passphrase is told before anything is written. */
  check: SealedData;
}

export interface BackupHeader {
  kind: typeof BACKUP_KIND;
  version: number;
  createdAt: string;
  /** The engine it was read from (restores go to either). */
  engine: 'sqlite' | 'postgres';
  /** The schema migrations the source had run, in order: a restore loads the rows into that schema. */
  migrations: string[];
  /** Present when the file holds secrets (`--include-secrets`). */
  secrets?: SecretsHeader;
  contents: BackupContents;
}

export interface SealedData {
  iv: string;
  tag: string;
  data: string;
}

/** Rows of a table as stored (secret columns null when the file has no secrets). */
export interface RowsLine {
  kind: 'rows';
  table: string;
  rows: BackupRow[];
}

/**
 * Encrypted rows: a `sealed` table's whole rows, or a `split` table's secret columns with the
 * key of their row (docs/backup.md, "Secrets"), before the `rows` line they belong to.
 */
export interface SealedLine extends SealedData {
  kind: 'sealed';
  table: string;
}

export interface FileLine {
  kind: 'file';
  key: string;
  contentType: string;
  size: number;
}

export interface FileDataLine {
  kind: 'file-data';
  data: string;
}

export interface FileEndLine {
  kind: 'file-end';
  sha256: string;
}

export interface EndLine {
  kind: 'end';
  /** What was written: rows per table, sealed lines, files and their bytes. */
  counts: BackupCounts;
}

export interface BackupCounts {
  tables: Record<string, number>;
  sealed: number;
  files: number;
  bytes: number;
  /** Files a media record names that the store did not have when the backup read it (deleted meanwhile). */
  missingFiles: string[];
}

export type BackupLine = BackupHeader | RowsLine | SealedLine | FileLine | FileDataLine | FileEndLine | EndLine;
