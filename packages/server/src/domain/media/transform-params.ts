import { createHash, createHmac } from 'node:crypto';
import type { MediaTransformsConfig } from '../../config/types.js';
import { TRANSFORM_FITS, TRANSFORM_FORMATS } from '../../config/media-transforms-section.js';
import { errors, type ErrorDetail } from '../../errors.js';
import { safeEqual } from '../identity/secrets.js';

/**
 * The query of an image transform (docs/media.md, "Image transforms"): `w`, `h`, `fit`, `format`,
 * `q`, `preset`, and `sig` over the rest. Pure rules: parsing, the guard (presets always, free
 * parameters signed or public), the limits, and the signature's canonical text.
 */

export const TRANSFORM_PARAMS = ['fit', 'format', 'h', 'preset', 'q', 'w'] as const;
type Param = (typeof TRANSFORM_PARAMS)[number];
const FREE: readonly Param[] = ['fit', 'format', 'h', 'q', 'w'];

export type Fit = (typeof TRANSFORM_FITS)[number];
export type OutputFormat = Exclude<(typeof TRANSFORM_FORMATS)[number], 'auto'>;

/** What to render, before `auto` and the source's format are resolved. */
export interface TransformSpec {
  w?: number;
  h?: number;
  fit: Fit;
  format?: OutputFormat | 'auto';
  q?: number;
}

/** True when the query asks for a transform at all; other parameters (cache busters) are ignored as before. */
export function asksForTransform(query: Readonly<Record<string, unknown>>): boolean {
  return TRANSFORM_PARAMS.some((p) => query[p] !== undefined) || query.sig !== undefined;
}

/**
 * `name=value` pairs of the transform parameters present, sorted by name, joined by `&`: the text
 * a signature covers (after the file key and `?`), and what `imageUrl` in @vellum/client writes.
 */
export function canonicalQuery(params: Partial<Record<Param, string>>): string {
  return TRANSFORM_PARAMS.filter((p) => params[p] !== undefined)
    .map((p) => `${p}=${p === 'preset' ? encodeURIComponent(params[p] as string) : params[p]}`)
    .join('&');
}

/** base64url HMAC-SHA256 over `<key>?<canonical query>` (docs/media.md, "Signed URLs"). */
export function transformSignature(secret: string, key: string, canonical: string): string {
  return createHmac('sha256', secret).update(`${key}?${canonical}`).digest('base64url');
}

/**
 * Reads and checks the transform query of the file `key`: 400 for a malformed value, an unknown
 * preset or a size over the limits; 403 for free parameters that are neither signed with
 * `media.transforms.secret` nor allowed by `media.transforms.public`.
 */
export function parseTransform(key: string, query: Readonly<Record<string, unknown>>, config: MediaTransformsConfig): TransformSpec {
  const details: ErrorDetail[] = [];
  const raw: Partial<Record<Param, string>> = {};
  for (const p of [...TRANSFORM_PARAMS, 'sig'] as const) {
    const v = query[p];
    if (v === undefined) continue;
    if (typeof v !== 'string') details.push({ field: p, message: 'given more than once' });
    else if (p !== 'sig') raw[p] = v;
  }
  const int = (p: 'w' | 'h' | 'q', min: number, max: number) => {
    const v = raw[p];
    if (v === undefined) return undefined;
    if (!/^\d{1,6}$/.test(v) || Number(v) < min || Number(v) > max) {
      details.push({ field: p, message: `expected a whole number from ${min} to ${max}` });
      return undefined;
    }
    return Number(v);
  };
  const w = int('w', 1, config.maxWidth);
  const h = int('h', 1, config.maxHeight);
  const q = int('q', 1, 100);
  const fit = oneOf(raw.fit, TRANSFORM_FITS, 'fit', details);
  const format = oneOf(raw.format, TRANSFORM_FORMATS, 'format', details);
  const preset = raw.preset !== undefined ? config.presets[raw.preset] : undefined;
  if (raw.preset !== undefined && !preset) details.push({ field: 'preset', message: `no preset named "${raw.preset}"` });
  if (details.length > 0) throw errors.invalidInput('Invalid image transform', details);

  const spec = { ...preset, ...defined({ w, h, fit, format, q }) };
  if (spec.w !== undefined && spec.h !== undefined && spec.w * spec.h > config.maxPixels)
    throw errors.invalidInput('Invalid image transform', [
      { field: 'w', message: `${spec.w}×${spec.h} is over the limit of ${config.maxPixels} pixels` },
    ]);

  const free = FREE.some((p) => raw[p] !== undefined);
  if (free && !config.public) {
    if (config.secret === undefined)
      throw errors.forbidden('Free transform parameters need a signature; this server signs none (use a preset)');
    const sig = query.sig;
    if (typeof sig !== 'string' || !safeEqual(sig, transformSignature(config.secret, key, canonicalQuery(raw))))
      throw errors.forbidden('Free transform parameters need a valid signature (sig), or use a preset');
  }
  return { ...spec, fit: spec.fit ?? (spec.w !== undefined && spec.h !== undefined ? 'cover' : 'inside') };
}

/**
 * The output format: as asked; `auto` by `Accept` (AVIF, then WebP, when the client takes them)
 * or else the source's family; none asked: the source's own format where it is one we write.
 */
export function resolveFormat(asked: TransformSpec['format'], accept: string | undefined, sourceMime: string): OutputFormat {
  if (asked !== undefined && asked !== 'auto') return asked;
  if (asked === 'auto') {
    const takes = acceptedTypes(accept);
    if (takes.has('image/avif')) return 'avif';
    if (takes.has('image/webp')) return 'webp';
    return sourceMime === 'image/jpeg' ? 'jpeg' : 'png';
  }
  switch (sourceMime) {
    case 'image/png':
    case 'image/gif':
      return 'png';
    case 'image/webp':
      return 'webp';
    case 'image/avif':
      return 'avif';
    default:
      return 'jpeg';
  }
}

/** The media types an `Accept` header takes (q > 0), lower-cased. */
function acceptedTypes(accept: string | undefined): Set<string> {
  const taken = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (type && !(q !== undefined && Number(q.slice(2)) === 0)) taken.add(type);
  }
  return taken;
}

/**
 * The stored transform's key: beside its source, named by a hash of everything that decides its
 * bytes (the resolved format and quality, the focal point a crop used), so the same request finds
 * the same file and a new focal point a new one. `.t` keeps it from ever being a media file key.
 */
export function transformKey(
  sourceKey: string,
  resolved: { w?: number; h?: number; fit: Fit; format: OutputFormat; q: number; focal?: { x: number; y: number } },
): string {
  const stem = sourceKey.slice(0, sourceKey.lastIndexOf('.'));
  const f = resolved.focal;
  const hash = createHash('sha256')
    .update(
      JSON.stringify([sourceKey, resolved.w ?? 0, resolved.h ?? 0, resolved.fit, resolved.format, resolved.q, f?.x ?? null, f?.y ?? null]),
    )
    .digest('hex')
    .slice(0, 24);
  return `${stem}.t${hash}.${resolved.format === 'jpeg' ? 'jpg' : resolved.format}`;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], field: string, details: ErrorDetail[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  details.push({ field, message: `expected one of ${allowed.join(', ')}` });
  return undefined;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
