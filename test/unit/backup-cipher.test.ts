import { describe, expect, it } from 'vitest';
import { assertPassphrase, newBackupCipher, openBackupCipher } from '../../packages/server/src/domain/backup/backup-cipher.js';
import { mediaFiles, sealedLabel, secretPart } from '../../packages/server/src/domain/backup/backup-rules.js';
import { backupTable } from '../../packages/server/src/storage/backup/backup-tables.js';

/** The passphrase encryption of a backup's secrets and the rules of its lines (docs/backup.md). */
describe('backup cipher', () => {
  const passphrase = 'a long enough passphrase';

  it('opens what it sealed, with the key derived again from the header', async () => {
    const { cipher, header } = await newBackupCipher(passphrase);
    const sealed = cipher.seal(sealedLabel('webhooks', 0), '[{"id":"w1","secret_enc":"s3cret"}]');
    expect(sealed.data).not.toContain('s3cret');
    const again = await openBackupCipher(passphrase, JSON.parse(JSON.stringify(header)));
    expect(again.open(sealedLabel('webhooks', 0), sealed)).toBe('[{"id":"w1","secret_enc":"s3cret"}]');
    // A fresh salt and IV every time: the same secret never looks the same twice.
    const other = await newBackupCipher(passphrase);
    expect(other.header.salt).not.toBe(header.salt);
    expect(cipher.seal('x', 'same').iv).not.toBe(cipher.seal('x', 'same').iv);
  });

  it('refuses a wrong passphrase before anything is read (FORBIDDEN)', async () => {
    const { header } = await newBackupCipher(passphrase);
    await expect(openBackupCipher('a different passphrase', header)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses a line moved to another place or table, and a changed one', async () => {
    const { cipher } = await newBackupCipher(passphrase);
    const sealed = cipher.seal(sealedLabel('mfa_methods', 3), 'secret');
    expect(() => cipher.open(sealedLabel('mfa_methods', 4), sealed)).toThrow(/does not open/);
    expect(() => cipher.open(sealedLabel('webhooks', 3), sealed)).toThrow(/does not open/);
    const data = Buffer.from(sealed.data, 'base64');
    data[0]! ^= 1;
    expect(() => cipher.open(sealedLabel('mfa_methods', 3), { ...sealed, data: data.toString('base64') })).toThrow(/does not open/);
  });

  it('refuses passphrases under 12 characters, and work factors a restore cannot afford', async () => {
    expect(() => assertPassphrase('eleven char')).toThrow(/at least 12/);
    expect(() => assertPassphrase('twelve chars')).not.toThrow();
    const { header } = await newBackupCipher(passphrase);
    await expect(openBackupCipher(passphrase, { ...header, N: 2 ** 24 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(openBackupCipher(passphrase, { ...header, kdf: 'pbkdf2' as 'scrypt' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('backup rules', () => {
  it('carries a media record’s original and each variant, with their types', () => {
    const files = mediaFiles({
      id: 'm1',
      filename: 'm1.jpg',
      mime_type: 'image/jpeg',
      variants: { thumb: { key: 'm1-thumb.webp', mimeType: 'image/webp' }, medium: { key: 'm1-medium.webp', mimeType: 'image/webp' } },
    });
    expect(files).toEqual([
      { key: 'm1.jpg', contentType: 'image/jpeg', mediaId: 'm1' },
      { key: 'm1-thumb.webp', contentType: 'image/webp', mediaId: 'm1' },
      { key: 'm1-medium.webp', contentType: 'image/webp', mediaId: 'm1' },
    ]);
    expect(mediaFiles({ id: 'm2', filename: 'm2.pdf', mime_type: 'application/pdf', variants: {} })).toHaveLength(1);
  });

  it('reduces a split table’s row to its key and secret columns', () => {
    const row = { user_id: 'u1', method: 'totp', secret_enc: 'x', last_step: 5, created_at: 't', enabled_at: 't' };
    expect(secretPart(backupTable('mfa_methods')!, row)).toEqual({ user_id: 'u1', method: 'totp', secret_enc: 'x' });
  });
});
