import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imageUrl } from '../../packages/client/src/index.js';
import { signedImageUrl } from '../../packages/client/src/node.js';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import type { MediaTransformsConfig } from '../../packages/server/src/config/types.js';
import {
  asksForTransform,
  canonicalQuery,
  parseTransform,
  resolveFormat,
  transformKey,
  transformSignature,
} from '../../packages/server/src/domain/media/transform-params.js';
import { AppError } from '../../packages/server/src/errors.js';
import { configProblems } from '../helpers/config-problems.js';

/** The pure rules of image transforms (docs/media.md): the query, the guard, the limits, the signature, the format. */
const SECRET = 'a-transform-secret-of-more-than-32-chars';
const config = (over: Partial<MediaTransformsConfig> = {}): MediaTransformsConfig => ({
  presets: { card: { w: 800, h: 450, fit: 'cover', format: 'auto' } },
  secret: SECRET,
  public: false,
  maxWidth: 4000,
  maxHeight: 4000,
  maxPixels: 16_000_000,
  ...over,
});
const KEY = 'abc.jpg';
const signedQuery = (q: Record<string, string>) => ({ ...q, sig: transformSignature(SECRET, KEY, canonicalQuery(q)) });
const refusal = (fn: () => unknown): { status: number; fields: string[] } => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, fields: (err.details ?? []).map((d) => d.field) };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('the query', () => {
  it('names a transform only by its own parameters', () => {
    expect(asksForTransform({})).toBe(false);
    expect(asksForTransform({ v: '3' })).toBe(false);
    for (const p of ['w', 'h', 'fit', 'format', 'q', 'preset', 'sig']) expect(asksForTransform({ [p]: '1' })).toBe(true);
  });

  it('is signed in one spelling: sorted by name, the preset encoded', () => {
    expect(canonicalQuery({ w: '800', format: 'auto', fit: 'cover', h: '450', q: '70', preset: 'a b' })).toBe(
      'fit=cover&format=auto&h=450&preset=a%20b&q=70&w=800',
    );
  });

  it('the signature is base64url HMAC-SHA256 of `<key>?<query>` (checked against node:crypto directly)', () => {
    expect(transformSignature(SECRET, KEY, 'w=800')).toBe(createHmac('sha256', SECRET).update('abc.jpg?w=800').digest('base64url'));
  });

  it('the client writes the query the server signs, for any transform', () => {
    const cases = [
      { w: 1 },
      { h: 2, w: 3 },
      { fit: 'inside', format: 'png', q: 5 },
      { preset: 'card' },
      { preset: 'card', w: 400 },
    ] as const;
    for (const t of cases) {
      const url = imageUrl({ url: '/api/media/files/abc.jpg' }, t);
      const query = url.slice(url.indexOf('?') + 1);
      const params = Object.fromEntries(new URLSearchParams(query));
      expect(canonicalQuery(params)).toBe(query);
      const signed = new URL(signedImageUrl({ url: '/api/media/files/abc.jpg', filename: KEY }, t, SECRET), 'http://x');
      const all = Object.fromEntries(signed.searchParams);
      expect(() => parseTransform(KEY, all, config())).not.toThrow();
    }
  });
});

describe('the guard', () => {
  it('a preset alone is allowed unsigned, and is what it names', () => {
    expect(parseTransform(KEY, { preset: 'card' }, config())).toEqual({ w: 800, h: 450, fit: 'cover', format: 'auto' });
  });

  it('free parameters: signed is allowed; unsigned, wrong, or without a secret is 403; public needs none', () => {
    expect(parseTransform(KEY, signedQuery({ w: '300' }), config())).toEqual({ w: 300, fit: 'inside' });
    expect(refusal(() => parseTransform(KEY, { w: '300' }, config())).status).toBe(403);
    expect(refusal(() => parseTransform(KEY, { w: '300', sig: transformSignature(SECRET, 'other.jpg', 'w=300') }, config())).status).toBe(
      403,
    );
    expect(refusal(() => parseTransform(KEY, signedQuery({ w: '300' }), config({ secret: undefined }))).status).toBe(403);
    expect(refusal(() => parseTransform(KEY, { preset: 'card', w: '300' }, config())).status).toBe(403);
    expect(parseTransform(KEY, { w: '300', h: '300' }, config({ public: true }))).toEqual({ w: 300, h: 300, fit: 'cover' });
  });

  it('a preset overridden by signed parameters keeps the rest', () => {
    expect(parseTransform(KEY, signedQuery({ preset: 'card', w: '400' }), config())).toEqual({
      w: 400,
      h: 450,
      fit: 'cover',
      format: 'auto',
    });
  });

  it('malformed values, repeated parameters, unknown presets and sizes over the limits are 400 naming the parameter', () => {
    const open = config({ public: true, maxWidth: 1000, maxHeight: 1000, maxPixels: 500_000 });
    for (const [query, field] of [
      [{ w: '0' }, 'w'],
      [{ w: '1.5' }, 'w'],
      [{ w: '-3' }, 'w'],
      [{ w: '1001' }, 'w'],
      [{ h: '1001' }, 'h'],
      [{ q: '0' }, 'q'],
      [{ fit: 'fill' }, 'fit'],
      [{ format: 'gif' }, 'format'],
      [{ preset: 'nope' }, 'preset'],
      [{ w: ['1', '2'] }, 'w'],
      [{ w: '1000', h: '501' }, 'w'],
    ] as const) {
      expect(
        refusal(() => parseTransform(KEY, query, open)),
        JSON.stringify(query),
      ).toEqual({ status: 400, fields: [field] });
    }
  });
});

describe('the output format', () => {
  it('auto: AVIF, then WebP, by Accept (q=0 refuses), else by the source', () => {
    expect(resolveFormat('auto', 'image/avif,image/webp,*/*', 'image/png')).toBe('avif');
    expect(resolveFormat('auto', 'image/webp,*/*', 'image/png')).toBe('webp');
    expect(resolveFormat('auto', 'image/avif;q=0, image/webp;q=0.8', 'image/png')).toBe('webp');
    expect(resolveFormat('auto', '*/*', 'image/jpeg')).toBe('jpeg');
    expect(resolveFormat('auto', undefined, 'image/gif')).toBe('png');
  });

  it('none asked: the source’s own where we write it', () => {
    expect(resolveFormat(undefined, 'image/avif', 'image/jpeg')).toBe('jpeg');
    expect(resolveFormat(undefined, undefined, 'image/gif')).toBe('png');
    expect(resolveFormat(undefined, undefined, 'image/tiff')).toBe('jpeg');
    expect(resolveFormat('webp', 'image/avif', 'image/png')).toBe('webp');
  });
});

describe('the stored key', () => {
  it('sits beside its source, names its format, and differs with anything that decides the bytes', () => {
    const base = { w: 300, h: 200, fit: 'cover' as const, format: 'jpeg' as const, q: 80 };
    const key = transformKey('abc.png', base);
    expect(key).toMatch(/^abc\.t[0-9a-f]{24}\.jpg$/);
    expect(transformKey('abc.png', base)).toBe(key);
    for (const other of [{ w: 301 }, { q: 81 }, { fit: 'contain' as const }, { format: 'webp' as const }, { focal: { x: 0.2, y: 0.5 } }])
      expect(transformKey('abc.png', { ...base, ...other })).not.toBe(key);
  });
});

describe('media.transforms config', () => {
  it('defaults: no presets, no secret, not public, 4000 × 4000, 16 000 000 pixels', () => {
    expect(resolveConfig({}, {}).media.transforms).toEqual({
      presets: {},
      public: false,
      maxWidth: 4000,
      maxHeight: 4000,
      maxPixels: 16_000_000,
    });
  });

  it('the secret from the environment wins; a short one is refused', () => {
    const env = { VELLUM_MEDIA_TRANSFORMS_SECRET: 'x'.repeat(40) };
    expect(resolveConfig({ media: { transforms: { secret: 'y'.repeat(40) } } }, env).media.transforms.secret).toBe('x'.repeat(40));
    expect(configProblems({ media: { transforms: { secret: 'short' } } })).toEqual([
      'media.transforms.secret: must be at least 32 characters',
    ]);
  });

  it('checks presets: names, values, and that each asks for something', () => {
    expect(configProblems({ media: { transforms: { presets: { 'bad name': { w: 10 } } } } })).toHaveLength(1);
    expect(configProblems({ media: { transforms: { presets: { p: { w: 0 } } } } })).toHaveLength(1);
    expect(configProblems({ media: { transforms: { presets: { p: { fit: 'fill', w: 10 } } } } })).toEqual([
      'media.transforms.presets.p.fit: expected one of cover, contain, inside',
    ]);
    expect(configProblems({ media: { transforms: { presets: { p: { fit: 'cover' } } } } })).toEqual([
      'media.transforms.presets.p: a preset names a width, a height or a format',
    ]);
    expect(configProblems({ media: { transforms: { presets: { p: { w: 10, crop: 1 } } } } })).toEqual([
      'media.transforms.presets.p.crop: unknown setting',
    ]);
  });
});
