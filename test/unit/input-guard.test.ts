import { describe, expect, it } from 'vitest';
import { badText, refuseBadText } from '../../packages/server/src/http/plugins/input-guard.js';
import { isAppError } from '../../packages/server/src/errors.js';

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

  it('finds a NUL at any depth, without recursion, and keeps the named path short', () => {
    let deep: unknown = ['\u0000'];
    for (let i = 0; i < 50_000; i++) deep = [deep];
    const field = refusedAt({ meta: deep });
    expect(field).toBe(`body.meta.${Array(62).fill('0').join('.')}.…`);
    let fine: unknown = ['ok'];
    for (let i = 0; i < 50_000; i++) fine = [fine];
    expect(refusedAt({ meta: fine })).toBeUndefined();
  });
});
