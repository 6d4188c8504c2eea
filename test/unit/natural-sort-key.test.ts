import { describe, expect, it } from 'vitest';
import { naturalSortKey } from '../../packages/server/src/storage/natural-sort-key.js';

/** Byte order of UTF-8, as SQLite compares text and PostgreSQL does under `collate "C"`. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const naturally = (titles: string[]) => [...titles].sort((a, b) => byBytes(naturalSortKey(a)!, naturalSortKey(b)!));

describe('the natural sort key', () => {
  it('orders digit runs by their value: Chapter 2 before Chapter 10, 9a between 9 and 10', () => {
    expect(naturally(['Chapter 10', 'Chapter 2', 'Chapter 1', 'Chapter 9a', 'Chapter 9', 'Chapter 100'])).toEqual([
      'Chapter 1',
      'Chapter 2',
      'Chapter 9',
      'Chapter 9a',
      'Chapter 10',
      'Chapter 100',
    ]);
    expect(naturally(['v1.10.0', 'v1.2.10', 'v1.2.9', 'v10.0.0'])).toEqual(['v1.2.9', 'v1.2.10', 'v1.10.0', 'v10.0.0']);
  });

  it('ignores case and accents, and leading zeros: such titles have one key', () => {
    expect(naturalSortKey('Émile 007')).toBe(naturalSortKey('emile 7'));
    expect(naturalSortKey('CRÈME brûlée')).toBe(naturalSortKey('creme brulee'));
    expect(naturally(['beta', 'Alpha', 'Émile', 'zeta', 'Eve'])).toEqual(['Alpha', 'beta', 'Émile', 'Eve', 'zeta']);
  });

  it('pads each digit run to 20 digits: numbers as large as a 64-bit integer compare by value', () => {
    // Longer runs keep their digits, without the leading zeros.
    expect(naturalSortKey('x 000123456789012345678901')).toBe('x 123456789012345678901');
    expect(naturalSortKey('a1b')).toBe('a00000000000000000001b');
    expect(naturalSortKey('0')).toBe('00000000000000000000');
    expect(naturalSortKey('18446744073709551615')).toBe('18446744073709551615');
    expect(naturally(['x 18446744073709551615', 'x 9223372036854775807', 'x 99'])).toEqual([
      'x 99',
      'x 9223372036854775807',
      'x 18446744073709551615',
    ]);
  });

  it('digits sort before letters, and a number before longer text that starts the same', () => {
    expect(naturally(['Part A', 'Part 3', 'Part', 'Part 3 appendix'])).toEqual(['Part', 'Part 3', 'Part 3 appendix', 'Part A']);
  });

  it('has no key for what is not text: absent values keep their own place in the order', () => {
    expect(naturalSortKey(null)).toBeNull();
    expect(naturalSortKey(12)).toBeNull();
    expect(naturalSortKey('')).toBe('');
  });
});
