import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../packages/server/src/domain/shared/merge-patch.js';

/** RFC 7396 Appendix A: every example as [target, patch, result]. */
const APPENDIX_A: ReadonlyArray<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('mergePatch (RFC 7396)', () => {
  it.each(APPENDIX_A.map(([target, patch, result], i) => ({ n: i + 1, target, patch, result })))(
    'Appendix A example $n: $target + $patch → $result',
    ({ target, patch, result }) => {
      expect(mergePatch(target, patch)).toEqual(result);
    },
  );

  it('§3 example: changes the title, removes the family name, replaces the tags, adds a phone number', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(mergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('leaves the target as it was (the stored document is not modified in place)', () => {
    const target = { a: { b: 'c' }, d: 'e' };
    mergePatch(target, { a: { b: null }, d: null });
    expect(target).toEqual({ a: { b: 'c' }, d: 'e' });
  });
});
