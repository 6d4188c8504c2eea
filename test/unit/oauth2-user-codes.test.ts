import { describe, expect, it } from 'vitest';
import { USER_CODE_ALPHABET, formatUserCode, newUserCode, normaliseUserCode } from '../../packages/server/src/domain/oauth2/user-codes.js';

describe('device-flow user codes (RFC 8628 §6.1)', () => {
  it('8 characters of the consonant alphabet, no vowels and no digits, shown XXXX-XXXX', () => {
    expect(USER_CODE_ALPHABET).toBe('BCDFGHJKLMNPQRSTVWXZ');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      for (const c of code) seen.add(c);
    }
    expect(seen.size).toBe(20);
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });

  it('compares ignoring case, dashes and spaces; anything else is no code', () => {
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', 'bcdfghjk', ' BcDf GhJk ', 'BCDFGHJK'])
      expect(normaliseUserCode(typed)).toBe('BCDFGHJK');
    for (const typed of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', 'BCDF_GHJK', ''])
      expect(normaliseUserCode(typed)).toBeUndefined();
  });
});
