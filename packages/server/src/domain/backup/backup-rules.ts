import type { BackupRow } from '../../storage/backup/backup-rows.js';
import type { BackupTable } from '../../storage/backup/backup-tables.js';
import type { SecretBox } from '../mfa/secret-box.js';
import { newWebhookSecret } from '../webhooks/sign-payload.js';

/** A file of the media store that a backup carries: an original or one of its variants. */
export interface MediaFile {
  key: string;
  contentType: string;
  mediaId: string;
}

/** The files a media row names: its original (`filename`) and each variant's key. */
export function mediaFiles(row: BackupRow): MediaFile[] {
  const mediaId = String(row.id);
  const files: MediaFile[] = [{ key: String(row.filename), contentType: String(row.mime_type), mediaId }];
  const variants = row.variants;
  if (variants && typeof variants === 'object') {
    for (const v of Object.values(variants as Record<string, { key?: unknown; mimeType?: unknown }>)) {
      if (typeof v?.key === 'string')
        files.push({ key: v.key, contentType: typeof v.mimeType === 'string' ? v.mimeType : 'application/octet-stream', mediaId });
    }
  }
  return files;
}

/** What a sealed line is bound to: its table and its place among the sealed lines. */
export const sealedLabel = (table: string, index: number): string => `vellum-backup-1/${table}/${index}`;

/** A `split` table's row reduced to its key and its secret columns. */
export function secretPart(table: BackupTable, row: BackupRow): BackupRow {
  return Object.fromEntries([...table.key, ...(table.secretColumns ?? [])].map((c) => [c, row[c]]));
}

/** The identity of a row within its table, by its key columns. */
export const rowKey = (table: BackupTable, row: BackupRow): string => JSON.stringify(table.key.map((c) => row[c]));

/** What a restore did to a row whose secret the backup did not hold. */
export type SecretLeftOut = 'webhook-disabled' | 'totp-without-secret';

/** Seals the row's secret columns (plain in the backup) with the restoring instance's box. */
export function sealSecrets(table: BackupTable, row: BackupRow, box: SecretBox): BackupRow {
  for (const c of table.secretColumns ?? []) if (typeof row[c] === 'string') row[c] = box.seal(row[c]);
  return row;
}

/**
 * A `split` table's row restored without its secret (docs/backup.md, "Secrets"):
 * - a webhook gets a new secret and is turned off, so nothing is sent signed with a secret its
 *   receiver does not know; rotating its secret and turning it on again is the operator's step;
 * - an authenticator app (TOTP) stays the user's second factor, without a secret: its codes are
 *   refused, backup codes still sign in, and an admin can reset the user's MFA.
 */
export function withoutSecret(table: BackupTable, row: BackupRow, box: SecretBox, now: string): SecretLeftOut | undefined {
  if (table.name === 'webhooks') {
    row.secret_enc = box.seal(newWebhookSecret());
    row.active = 0;
    row.disabled_at = now;
    row.disabled_reason = 'restored from a backup without secrets: rotate the secret, then turn the webhook on';
    return 'webhook-disabled';
  }
  if (table.name === 'mfa_methods' && row.method === 'totp' && row.enabled_at !== null) return 'totp-without-secret';
  return undefined;
}
