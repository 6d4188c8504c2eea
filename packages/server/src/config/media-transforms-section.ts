import type { ConfigReader } from './reader.js';
import type { MediaTransformsConfig, TransformPreset } from './types.js';

export const TRANSFORM_FITS = ['cover', 'contain', 'inside'] as const;
export const TRANSFORM_FORMATS = ['webp', 'avif', 'jpeg', 'png', 'auto'] as const;

/**
 * `media.transforms {presets, secret, public, maxWidth, maxHeight, maxPixels}` and
 * `VELLUM_MEDIA_TRANSFORMS_SECRET` (docs/media.md, "Image transforms"). Presets are always allowed;
 * free parameters need a signature made with `secret`, unless `public` is set.
 */
export function mediaTransformsSection(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): MediaTransformsConfig {
  const o = r.object('media.transforms', raw, ['presets', 'secret', 'public', 'maxWidth', 'maxHeight', 'maxPixels']);
  const source = env.VELLUM_MEDIA_TRANSFORMS_SECRET !== undefined ? 'VELLUM_MEDIA_TRANSFORMS_SECRET' : 'media.transforms.secret';
  const secret = r.string(source, env.VELLUM_MEDIA_TRANSFORMS_SECRET ?? o.secret);
  // It signs URLs anyone can read: guessing it would let a crawler render any size.
  if (secret !== undefined && secret.length < 32) r.problem(source, 'must be at least 32 characters');
  const maxWidth = r.int('media.transforms.maxWidth', o.maxWidth, { def: 4000, min: 1, max: 16_384 }) as number;
  const maxHeight = r.int('media.transforms.maxHeight', o.maxHeight, { def: 4000, min: 1, max: 16_384 }) as number;
  const limits = { maxWidth, maxHeight };
  return {
    presets: presetMap(r, o.presets, limits),
    ...(secret !== undefined ? { secret } : {}),
    public: r.bool('media.transforms.public', o.public, false),
    maxWidth,
    maxHeight,
    maxPixels: r.int('media.transforms.maxPixels', o.maxPixels, { def: 16_000_000, min: 1 }) as number,
  };
}

function presetMap(
  r: ConfigReader,
  raw: unknown,
  limits: { maxWidth: number; maxHeight: number },
): Readonly<Record<string, TransformPreset>> {
  const o = r.object('media.transforms.presets', raw);
  const presets: Record<string, TransformPreset> = {};
  for (const [name, value] of Object.entries(o)) {
    const path = `media.transforms.presets.${name}`;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) r.problem(path, 'a preset name is letters, digits, "_" and "-"');
    const p = r.object(path, value, ['w', 'h', 'fit', 'format', 'q']);
    const preset: TransformPreset = {
      w: r.int(`${path}.w`, p.w, { min: 1, max: limits.maxWidth }),
      h: r.int(`${path}.h`, p.h, { min: 1, max: limits.maxHeight }),
      fit: oneOf(r, `${path}.fit`, p.fit, TRANSFORM_FITS),
      format: oneOf(r, `${path}.format`, p.format, TRANSFORM_FORMATS),
      q: r.int(`${path}.q`, p.q, { min: 1, max: 100 }),
    };
    if (p.w === undefined && p.h === undefined && p.format === undefined) r.problem(path, 'a preset names a width, a height or a format');
    presets[name] = Object.fromEntries(Object.entries(preset).filter(([, v]) => v !== undefined)) as TransformPreset;
  }
  return presets;
}

function oneOf<T extends string>(r: ConfigReader, path: string, raw: unknown, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  r.problem(path, `expected one of ${allowed.join(', ')}`);
  return undefined;
}
