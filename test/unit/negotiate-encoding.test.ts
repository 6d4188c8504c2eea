import { describe, expect, it } from 'vitest';
import { isCompressible } from '../../packages/server/src/http/compression/compress-body.js';
import { negotiateEncoding } from '../../packages/server/src/http/compression/negotiate-encoding.js';

/** `Accept-Encoding` (RFC 9110 §12.5.3), with the RFC's own examples first. */
describe('negotiateEncoding', () => {
  it.each([
    // RFC 9110 §12.5.3's examples.
    ['compress, gzip', 'gzip'],
    ['', undefined],
    ['*', 'br'],
    ['compress;q=0.5, gzip;q=1.0', 'gzip'],
    ['gzip;q=1.0, identity; q=0.5, *;q=0', 'gzip'],
    // Browsers.
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    // The highest q wins; br before gzip on a tie.
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['gzip, br;q=0', 'gzip'],
    // `*` covers what is not named; q=0 refuses.
    ['br;q=0, *', 'gzip'],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    // x-gzip is gzip (RFC 9110 §8.4.1.3); names and parameters are case-insensitive.
    ['x-gzip', 'gzip'],
    ['GZIP;Q=0.5', 'gzip'],
    // A qvalue out of the grammar (RFC 9110 §12.4.2) counts as 0.
    ['br;q=2, gzip;q=abc', undefined],
    ['br;q=0.1234', undefined],
    [' , ;q=1, gzip ', 'gzip'],
  ])('%j → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });

  it('no header is identity', () => {
    expect(negotiateEncoding(undefined)).toBeUndefined();
  });
});

describe('isCompressible', () => {
  it.each([
    ['application/json; charset=utf-8', true],
    ['application/problem+json', true],
    ['text/html; charset=utf-8', true],
    ['text/javascript', true],
    ['application/javascript', true],
    ['image/svg+xml', true],
    ['application/xml', true],
    ['text/event-stream', false],
    ['image/png', false],
    ['application/octet-stream', false],
    ['font/woff2', false],
    [undefined, false],
  ])('%s → %s', (type, expected) => {
    expect(isCompressible(type)).toBe(expected);
  });
});
