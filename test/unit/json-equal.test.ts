import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../packages/server/src/domain/shared/json-equal.js';

describe('jsonEqual (what a no-op PATCH compares)', () => {
  it('compares objects by keys in any order, arrays by position', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 'x', null] } }, { b: { c: [1, 'x', null] }, a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
  });

  it('tells apart values of different types, missing keys and extra keys', () => {
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual(0, false)).toBe(false);
    expect(jsonEqual('a', 'a')).toBe(true);
  });
});
