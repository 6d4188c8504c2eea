import { describe, expect, it } from 'vitest';
import { imageUrl, srcSet, type ImageTransform } from '../../packages/client/src/index.js';

/**
 * The client's image addresses (docs/media.md, "Image transforms"; docs/client.md, "Image URLs"):
 * the server caches and checks signatures by the exact query, so the builders spell it one way
 * only: parameters sorted by name, `sig` last, nothing added when there is nothing to transform.
 */
const media = { url: 'https://cms.example.com/api/media/files/abc.jpg', filename: 'abc.jpg' };
const cdn = { url: 'https://cdn.example.com/abc.jpg', filename: 'abc.jpg' };

describe('imageUrl', () => {
  it('leaves the address unchanged without parameters', () => {
    expect(imageUrl(media)).toBe(media.url);
    expect(imageUrl(media, {})).toBe(media.url);
    expect(imageUrl(media, { w: undefined, preset: undefined })).toBe(media.url);
  });

  it('sorts the parameters by name, whatever order they are given in', () => {
    expect(imageUrl(media, { w: 400, q: 70, h: 300, format: 'webp', fit: 'cover' })).toBe(
      `${media.url}?fit=cover&format=webp&h=300&q=70&w=400`,
    );
    expect(imageUrl(media, { w: 400, preset: 'card', h: 300 })).toBe(`${media.url}?h=300&preset=card&w=400`);
    expect(imageUrl(media, { w: 1 })).toBe(`${media.url}?w=1`);
  });

  it('percent-encodes the preset and nothing else', () => {
    expect(imageUrl(media, { preset: 'hero wide/2x' })).toBe(`${media.url}?preset=hero%20wide%2F2x`);
    expect(imageUrl(media, { preset: 'a&b=c' })).toBe(`${media.url}?preset=a%26b%3Dc`);
    expect(imageUrl(media, { format: 'auto', sig: 'ab12' })).toBe(`${media.url}?format=auto&sig=ab12`);
  });

  it('puts sig last', () => {
    expect(imageUrl(media, { sig: 'f00d', w: 800, fit: 'inside', q: 90 })).toBe(`${media.url}?fit=inside&q=90&w=800&sig=f00d`);
    expect(imageUrl(media, { sig: 'f00d', preset: 'card' })).toBe(`${media.url}?preset=card&sig=f00d`);
  });

  it('addresses the API server from base and filename, trailing slashes dropped', () => {
    expect(imageUrl(cdn, { base: 'https://cms.example.com/api', w: 400 })).toBe('https://cms.example.com/api/media/files/abc.jpg?w=400');
    expect(imageUrl(cdn, { base: 'https://cms.example.com/api//', w: 400 })).toBe('https://cms.example.com/api/media/files/abc.jpg?w=400');
    expect(imageUrl(cdn, { base: 'https://cms.example.com/api' })).toBe('https://cms.example.com/api/media/files/abc.jpg');
  });

  it('appends with & to an address that already has a query', () => {
    const signed = { url: 'https://bucket.example.com/abc.jpg?X-Amz-Expires=60' };
    expect(imageUrl(signed, { w: 400, format: 'png' })).toBe(`${signed.url}&format=png&w=400`);
    expect(imageUrl(signed)).toBe(signed.url);
  });

  it('refuses a width or height that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => imageUrl(media, { w: bad }), `w=${bad}`).toThrow(RangeError);
      expect(() => imageUrl(media, { h: bad }), `h=${bad}`).toThrow(RangeError);
    }
    expect(() => imageUrl(media, { w: 0 })).toThrow('w must be a positive integer, got 0');
    expect(() => imageUrl(media, { h: 2.5 })).toThrow('h must be a positive integer, got 2.5');
  });

  it('refuses a quality that is not an integer from 1 to 100', () => {
    for (const bad of [0, 101, -5, 50.5, Number.NaN]) {
      expect(() => imageUrl(media, { q: bad }), `q=${bad}`).toThrow(RangeError);
    }
    expect(() => imageUrl(media, { q: 101 })).toThrow('q must be an integer from 1 to 100, got 101');
    expect(imageUrl(media, { q: 1 })).toBe(`${media.url}?q=1`);
    expect(imageUrl(media, { q: 100 })).toBe(`${media.url}?q=100`);
  });

  it('refuses a fit or format outside the lists', () => {
    expect(() => imageUrl(media, { fit: 'fill' } as unknown as ImageTransform)).toThrow(RangeError);
    expect(() => imageUrl(media, { fit: 'fill' } as unknown as ImageTransform)).toThrow(
      'fit must be one of cover, contain, inside, got fill',
    );
    expect(() => imageUrl(media, { format: 'gif' } as unknown as ImageTransform)).toThrow(RangeError);
    expect(() => imageUrl(media, { format: 'gif' } as unknown as ImageTransform)).toThrow(
      'format must be one of webp, avif, jpeg, png, auto, got gif',
    );
    expect(() => imageUrl(media, { format: 'WEBP' } as unknown as ImageTransform)).toThrow(RangeError);
  });

  it('refuses an empty preset and an empty signature', () => {
    expect(() => imageUrl(media, { preset: '' })).toThrow(RangeError);
    expect(() => imageUrl(media, { preset: '' })).toThrow('preset must be a non-empty name');
    expect(() => imageUrl(media, { w: 10, sig: '' })).toThrow(RangeError);
  });

  it('refuses base for a record without a filename', () => {
    expect(() => imageUrl({ url: cdn.url }, { base: 'https://cms.example.com/api', w: 400 })).toThrow(TypeError);
    expect(() => imageUrl({ url: cdn.url }, { base: 'https://cms.example.com/api' })).toThrow('base needs media.filename');
  });
});

describe('srcSet', () => {
  it('lists each width once, ascending, each with its own w and descriptor', () => {
    expect(srcSet(media, [1200, 400, 800, 400])).toBe(`${media.url}?w=400 400w, ${media.url}?w=800 800w, ${media.url}?w=1200 1200w`);
    expect(srcSet(media, [640])).toBe(`${media.url}?w=640 640w`);
  });

  it('keeps the other parameters in every entry, in the sorted order', () => {
    expect(srcSet(media, [800, 400], { format: 'auto', q: 70, fit: 'cover', h: 300 })).toBe(
      `${media.url}?fit=cover&format=auto&h=300&q=70&w=400 400w, ${media.url}?fit=cover&format=auto&h=300&q=70&w=800 800w`,
    );
    expect(srcSet(cdn, [200, 100], { base: 'https://cms.example.com/api/', preset: 'thumb' })).toBe(
      'https://cms.example.com/api/media/files/abc.jpg?preset=thumb&w=100 100w, https://cms.example.com/api/media/files/abc.jpg?preset=thumb&w=200 200w',
    );
  });

  it('never carries a signature or a w of the options (each width would need its own)', () => {
    const t = { format: 'webp', w: 999, sig: 'f00d' } as unknown as Omit<ImageTransform, 'w' | 'sig'>;
    expect(srcSet(media, [400], t)).toBe(`${media.url}?format=webp&w=400 400w`);
  });

  it('refuses an empty list and a bad width', () => {
    expect(() => srcSet(media, [])).toThrow(RangeError);
    expect(() => srcSet(media, [])).toThrow('widths must name at least one width');
    expect(() => srcSet(media, [400, 0])).toThrow(RangeError);
    expect(() => srcSet(media, [400, 1.5])).toThrow(RangeError);
    expect(() => srcSet(media, [400], { q: 0 })).toThrow(RangeError);
    expect(() => srcSet({ url: cdn.url }, [400], { base: 'https://cms.example.com/api' })).toThrow(TypeError);
  });
});
