import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { VellumConfig } from '../../config/types.js';
import { errors } from '../../errors.js';
import type { Database } from '../../storage/database.js';
import { putInstanceValueOnce } from '../../storage/settings/instance-store.js';

/**
 * Secrets kept encrypted at rest (TOTP secrets, trusted device ids): AES-256-GCM under a key
 * derived with HKDF-SHA-256 (RFC 5869) from `security.encryptionKey`, or from the JWT key when
 * none is configured, so a database dump alone does not reveal them.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /**
   * HMAC-SHA-256 (hex) under a key of its own: for short secrets that are compared, never read
   * back (email codes), so a dump of the database does not let anyone try all million codes.
   */
  mac(text: string): string;
}

const VERSION = 'v1';

export async function loadSecretBox(database: Database, config: VellumConfig): Promise<SecretBox> {
  const material =
    config.security.encryptionKey ??
    config.security.jwtSecret ??
    (await putInstanceValueOnce(database, 'jwt_secret', randomBytes(48).toString('base64url')));
  return secretBox(Buffer.from(hkdfSync('sha256', material, 'vellum', 'vellum secrets at rest v1', 32)));
}

export function secretBox(key: Buffer): SecretBox {
  // The MAC key is derived apart from the encryption key (RFC 5869 §3.2: one key per purpose).
  const macKey = Buffer.from(hkdfSync('sha256', key, 'vellum', 'vellum code mac v1', 32));
  return {
    mac: (text) => createHmac('sha256', macKey).update(text).digest('hex'),
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw errors.internal('A stored secret cannot be read');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // A changed `security.encryptionKey` makes old secrets unreadable: say so, without the secret.
        throw errors.internal('A stored secret cannot be decrypted (was security.encryptionKey changed?)');
      }
    },
  };
}
