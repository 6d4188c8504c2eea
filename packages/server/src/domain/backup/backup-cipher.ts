import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { errors } from '../../errors.js';
import type { SealedData, SecretsHeader } from './backup-format.js';

/**
 * The passphrase encryption of a backup's secrets (docs/backup.md, "Secrets"): scrypt (RFC 7914)
 * derives a 256-bit key from the passphrase and a random salt; each sealed line is AES-256-GCM
 * with a random 96-bit IV (NIST SP 800-38D), its table and place in the file bound to it as
 * additional data, so a line moved elsewhere in the file does not open.
 */
export interface BackupCipher {
  seal(label: string, plain: string): SealedData;
  /** Throws `errors.invalidInput` when the line does not open (wrong key, changed or moved). */
  open(label: string, sealed: SealedData): string;
}

/** The work factor: 2^15 × 8 × 128 bytes = 32 MiB and about a tenth of a second, once per backup or restore. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const CHECK_LABEL = 'check';
const CHECK_TEXT = 'vellum-backup';
/** Fewer characters are guessed too easily against a stolen file. */
export const MIN_PASSPHRASE_LENGTH = 12;

function derive(passphrase: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scryptCallback(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function cipherOf(key: Buffer): BackupCipher {
  return {
    seal(label, plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(label, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    },
    open(label, sealed) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
        decipher.setAAD(Buffer.from(label, 'utf8'));
        decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw errors.invalidInput(`An encrypted part of the backup (${label}) does not open: the file was changed`);
      }
    },
  };
}

export function assertPassphrase(passphrase: string): void {
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
    throw errors.invalidInput(`The backup passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
}

/** A cipher with a new salt, and the header that lets a restore derive the same key. */
export async function newBackupCipher(passphrase: string): Promise<{ cipher: BackupCipher; header: SecretsHeader }> {
  assertPassphrase(passphrase);
  const salt = randomBytes(16);
  const cipher = cipherOf(await derive(passphrase, salt, PARAMS));
  return {
    cipher,
    header: { cipher: 'aes-256-gcm', kdf: 'scrypt', salt: salt.toString('base64'), ...PARAMS, check: cipher.seal(CHECK_LABEL, CHECK_TEXT) },
  };
}

/** The cipher of a backup's header; a wrong passphrase is an `errors.forbidden` before any line is read. */
export async function openBackupCipher(passphrase: string, header: SecretsHeader): Promise<BackupCipher> {
  const { N, r, p } = header;
  // A file sets its own work factor: keep it within what a restore can afford (1 GiB of memory at most).
  if (
    header.cipher !== 'aes-256-gcm' ||
    header.kdf !== 'scrypt' ||
    ![N, r, p].every(Number.isSafeInteger) ||
    N > 2 ** 20 ||
    r > 16 ||
    p > 4
  ) {
    throw errors.invalidInput('The backup encrypts its secrets in a way this version does not know');
  }
  const cipher = cipherOf(await derive(passphrase, Buffer.from(header.salt, 'base64'), { N, r, p }));
  let check: string;
  try {
    check = cipher.open(CHECK_LABEL, header.check);
  } catch {
    throw errors.forbidden('The passphrase does not open the secrets of this backup');
  }
  if (!timingSafeEqual(Buffer.from(check), Buffer.from(CHECK_TEXT)))
    throw errors.forbidden('The passphrase does not open the secrets of this backup');
  return cipher;
}
