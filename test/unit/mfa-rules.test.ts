import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { backupCodeHash, newBackupCodes } from '../../packages/server/src/domain/mfa/backup-codes.js';
import { loadSecretBox, secretBox } from '../../packages/server/src/domain/mfa/secret-box.js';
import type { Database } from '../../packages/server/src/storage/database.js';
import { matchTotpStep, newTotpSecret } from '../../packages/server/src/domain/mfa/totp.js';
import { isAppError } from '../../packages/server/src/errors.js';
import { configProblems } from '../helpers/config-problems.js';

/** RFC 6238 Appendix B's SHA-1 key, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238, SHA-1, 6 digits, 30 s, one step either side)', () => {
  it('matches the RFC 6238 test vectors (last 6 of the 8 digits) and names their step', () => {
    expect(matchTotpStep(RFC_SECRET, '287082', 59_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, '081804', 1_111_111_109_000)).toBe(37_037_036);
    expect(matchTotpStep(RFC_SECRET, '050471', 1_111_111_111_000)).toBe(37_037_037);
  });

  it('accepts one step either side, not two; refuses anything but 6 digits', () => {
    const at = 1_111_111_109_000; // step 37037036, code 081804
    expect(matchTotpStep(RFC_SECRET, '081804', at + 30_000)).toBe(37_037_036);
    expect(matchTotpStep(RFC_SECRET, '081804', at - 30_000)).toBe(37_037_036);
    expect(matchTotpStep(RFC_SECRET, '081804', at + 60_000)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '081804', at - 60_000)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '81804', at)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '0818045', at)).toBeNull();
  });

  it('new secrets are 160 bits of base32', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
  });
});

describe('backup codes', () => {
  it('a set is 10 distinct codes of 8 characters without 0 O 1 I L', () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
  });

  it('the hash ignores case, spaces and dashes, and differs per user', () => {
    expect(backupCodeHash('u1', 'abcd-efgh')).toBe(backupCodeHash('u1', 'ABCDEFGH'));
    expect(backupCodeHash('u1', ' ABCD EFGH ')).toBe(backupCodeHash('u1', 'ABCDEFGH'));
    expect(backupCodeHash('u2', 'ABCDEFGH')).not.toBe(backupCodeHash('u1', 'ABCDEFGH'));
  });
});

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed; the sealed text does not contain the plain text and differs each time', () => {
    const box = secretBox(randomBytes(32));
    const a = box.seal('JBSWY3DPEHPK3PXP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(a);
  });

  it('mac: HMAC-SHA-256 under a key of its own, so stored email codes cannot be tried from a dump', () => {
    const key = randomBytes(32);
    const box = secretBox(key);
    const text = 'user-1:login:123456';
    expect(box.mac(text)).toMatch(/^[0-9a-f]{64}$/);
    expect(box.mac(text)).toBe(secretBox(key).mac(text));
    expect(box.mac(text)).not.toBe(secretBox(randomBytes(32)).mac(text));
    expect(box.mac(text)).not.toBe(createHash('sha256').update(text).digest('hex'));
    expect(box.mac(text)).not.toBe(createHmac('sha256', key).update(text).digest('hex'));
  });

  it('a tampered text or another key is refused with an internal error that does not carry the secret', () => {
    const box = secretBox(randomBytes(32));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    const parts = sealed.split('.');
    const flipped = [parts[0], parts[1], parts[2], Buffer.from('x' + parts[3]).toString('base64url')].join('.');
    for (const attempt of [() => box.open(flipped), () => secretBox(randomBytes(32)).open(sealed), () => box.open('garbage')]) {
      let caught: unknown;
      try {
        attempt();
      } catch (err) {
        caught = err;
      }
      expect(isAppError(caught) && caught.code).toBe('INTERNAL_ERROR');
      expect(String((caught as Error).message)).not.toContain('JBSWY3DPEHPK3PXP');
    }
  });
});

describe('the key of the secret box', () => {
  it('comes from security.encryptionKey when set, else from the JWT secret: each opens only its own', async () => {
    const noDatabase = {} as Database;
    const jwtSecret = randomBytes(48).toString('base64url');
    const byJwt = await loadSecretBox(noDatabase, resolveConfig({ security: { jwtSecret } }, {}));
    const byJwtAgain = await loadSecretBox(noDatabase, resolveConfig({ security: { jwtSecret } }, {}));
    const byKey = await loadSecretBox(noDatabase, resolveConfig({ security: { jwtSecret, encryptionKey: 'e'.repeat(40) } }, {}));
    const sealed = byJwt.seal('JBSWY3DPEHPK3PXP');
    expect(byJwtAgain.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => byKey.open(sealed)).toThrow(/cannot be decrypted/);
    expect(byKey.open(byKey.seal('x'))).toBe('x');
  });
});

describe('MFA configuration', () => {
  it('security.mfa.trustedDeviceDays defaults to 30; security.encryptionKey is optional', () => {
    const c = resolveConfig({}, {});
    expect(c.security.mfa).toEqual({ trustedDeviceDays: 30 });
    expect(c.security.encryptionKey).toBeUndefined();
    expect(
      resolveConfig({ security: { mfa: { trustedDeviceDays: 7 }, encryptionKey: 'k'.repeat(32) } }, {}).security.mfa.trustedDeviceDays,
    ).toBe(7);
  });

  it('a short encryption key and an out-of-range trustedDeviceDays are configuration problems', () => {
    expect(configProblems({ security: { encryptionKey: 'short' } }).join('\n')).toContain('security.encryptionKey');
    expect(configProblems({ security: { mfa: { trustedDeviceDays: 0 } } }).join('\n')).toContain('security.mfa.trustedDeviceDays');
  });
});
