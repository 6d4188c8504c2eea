import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../packages/cli/src/output/format-table.js';

/**
 * The CLI's tables (packages/cli/src/output/format-table.ts) measure what a terminal shows: CJK
 * and emoji take two columns, combining marks none, so columns line up in every script.
 */
describe('formatTable', () => {
  it('lines up columns holding CJK, emoji and combining marks by display width', () => {
    const table = formatTable(
      ['_id', 'title', 'status'],
      [
        ['a1', 'Plain', 'draft'],
        ['a2', '東京の夜', 'published'],
        ['a3', 'Café 👩‍💻', 'draft'],
        ['a4', 'Cafe\u0301', 'draft'],
      ],
    );
    const lines = table.trimEnd().split('\n');
    // The status column starts at the same display column on every line.
    const statusAt = lines.map((l) => stringWidth(l.slice(0, l.lastIndexOf('  ') + 2)));
    expect(new Set(statusAt).size).toBe(1);
    expect(statusAt[0]).toBe(stringWidth('_id  東京の夜  '));
  });

  it('cuts a wide cell by columns, between graphemes, with "…", and keeps every line of a column as wide', () => {
    // 16 columns: 3 for the ids, 8 left for the titles (18 wide), 1 for x, and the gaps.
    const table = formatTable(
      ['_id', 'title', 'x'],
      [
        ['a1', '東京の夜景がきれい', 'y'],
        ['a2', 'short', 'y'],
      ],
      16,
    );
    const [header, first, second] = table.trimEnd().split('\n');
    // 夜 would straddle the 8th column: it goes, and a space keeps the column 8 wide.
    expect(first).toBe('a1   東京の…   y');
    expect(stringWidth(first)).toBe(stringWidth(second));
    expect(stringWidth(header)).toBeLessThanOrEqual(16);
    // A cut never splits a grapheme: the family emoji goes whole or not at all.
    const emoji = formatTable(['id', 'who'], [['1', 'ab👨‍👩‍👧cd']], 7);
    expect(emoji.split('\n')[1]).toBe('1   ab…');
  });
});
