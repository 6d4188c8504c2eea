import { describe, expect, it } from 'vitest';
import { badText, MAX_NESTING, refuseBadText } from '../../packages/server/src/http/plugins/input-guard.js';
import { isAppError } from '../../packages/server/src/errors.js';

/** `levels` arrays, one inside the other, around `inner`. */
function nest(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** The field `refuseBadText` names, or undefined when it lets the value through. */
function refusedAt(value: unknown, field = 'body'): string | undefined {
  try {
    refuseBadText(value, field);
    return undefined;
  } catch (err) {
    if (!isAppError(err)) throw err;
    expect(err.code).toBe('INVALID_INPUT');
    return err.details?.[0]?.field;
  }
}

// The one text rule (docs/api.md, "Errors"): NUL characters and lone UTF-16 surrogates.
describe('badText', () => {
  it.each([
    ['a\u0000b', true],
    ['\ud800', true],
    ['x\udc00y', true],
    ['plain', false],
    ['Grüße 🚀 — 日本語', false],
    ['tab\tand\nnewline', false],
    ['', false],
  ])('%j → %s', (s, bad) => expect(badText(s)).toBe(bad));
});

describe('refuseBadText', () => {
  it('names the first bad string by its dotted path, keys included', () => {
    expect(refusedAt({ seo: { title: 'ok', description: 'a\u0000' } })).toBe('body.seo.description');
    expect(refusedAt({ tags: ['a', 'b', '\ud800'] })).toBe('body.tags.2');
    expect(refusedAt({ ok: 1, ['k\u0000']: 'v' })).toBe('body.(key)');
    expect(refusedAt('a\u0000b', 'body.file (filename)')).toBe('body.file (filename)');
    expect(refusedAt({ 'user-agent': 'x\u0000' }, 'header')).toBe('header.user-agent');
  });

  it('lets good text, numbers, booleans and null through', () => {
    expect(refusedAt({ a: 'Grüße', b: [1, true, null, { c: '🚀' }], d: undefined })).toBeUndefined();
    expect(refusedAt(undefined)).toBeUndefined();
  });

  it('finds a NUL as deep as values may nest, and keeps the named path short', () => {
    expect(refusedAt({ meta: nest(98, '\u0000') })).toBe(`body.meta.${Array(62).fill('0').join('.')}.…`);
    expect(refusedAt(nest(MAX_NESTING, 'ok'))).toBeUndefined();
  });

  it('refuses values nested past MAX_NESTING levels, without recursion', () => {
    expect(MAX_NESTING).toBe(100);
    expect(refusedAt(nest(MAX_NESTING + 1, 'ok'))).toBe(`body.${Array(63).fill('0').join('.')}.…`);
    let deep: unknown = 'ok';
    for (let i = 0; i < 50_000; i++) deep = { a: deep };
    expect(() => refuseBadText(deep, 'body')).toThrow(/nested more than 100 levels deep/);
  });
});
