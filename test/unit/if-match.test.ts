import { describe, expect, it } from 'vitest';
import { documentEtag, etagMatches, parseIfMatch } from '../../packages/server/src/http/etag.js';
import { revisionMatches } from '../../packages/server/src/domain/documents/revision-condition.js';

// RFC 9110 §13.1.1 (If-Match) and §8.8.3 (entity tags): `*`, a list of tags, weak tags by value here.
describe('If-Match as revisions', () => {
  it('absent header: no precondition', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
  });

  it('`*` allows any stored revision', () => {
    expect(parseIfMatch('*')).toBe('any');
    expect(revisionMatches('any', 7)).toBe(true);
  });

  it('a list names the revisions it allows, weak tags by value', () => {
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('"xyzzy", "r2d2xxxx", "c3piozzzz"')).toEqual([]);
    expect(parseIfMatch(' "3" , W/"4"')).toEqual([3, 4]);
    expect(revisionMatches([3, 4], 4)).toBe(true);
    expect(revisionMatches([3, 4], 5)).toBe(false);
  });

  it('a tag that names no revision of ours allows none (the write answers 412)', () => {
    for (const header of ['"0"', '"007"', '3', '"-1"', '"1.5"', '""', '"99999999999"']) {
      expect(parseIfMatch(header), header).toEqual([]);
    }
    expect(revisionMatches([], 1)).toBe(false);
  });

  it('agrees with the ETag it answers', () => {
    expect(parseIfMatch(documentEtag(12))).toEqual([12]);
    expect(etagMatches(documentEtag(12), 12)).toBe(true);
    expect(etagMatches('W/"12"', 12)).toBe(true);
    expect(etagMatches('"13"', 12)).toBe(false);
  });
});
