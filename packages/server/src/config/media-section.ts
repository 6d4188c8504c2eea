import type { ConfigReader } from './reader.js';
import type { MediaConfig, MediaVariantConfig } from './types.js';
import { mediaTransformsSection } from './media-transforms-section.js';

const MiB = 1024 * 1024;
const FITS = ['cover', 'contain', 'inside', 'outside', 'fill'];
const FORMATS = ['webp', 'jpeg', 'png', 'avif'];
const VARIANT_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** thumb and medium are what the spec's record names; a configured list replaces them. */
export const DEFAULT_MEDIA_VARIANTS: readonly MediaVariantConfig[] = [
  { name: 'thumb', width: 200, height: 200, fit: 'cover', format: 'webp', quality: 80 },
  { name: 'medium', width: 800, fit: 'inside', format: 'webp', quality: 80 },
];

/**
 * Passive types a CMS library usually holds. HTML, XML and scripts are left out: they are
 * active content even when served safely, so an instance must opt in to them.
 */
export const DEFAULT_ALLOWED_TYPES: readonly string[] = [
  'image/',
  'video/',
  'audio/',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
];

/**
 * `media {storage, dir, s3, maxFileSize, allowedTypes, variants, maxPixels, publicBaseUrl, publicRead}`
 * with `MEDIA_DIR` and `S3_*` overrides. Setting `S3_BUCKET` alone selects S3 storage.
 */
export function mediaSection(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): MediaConfig {
  const o = r.object('media', raw, [
    'storage',
    'dir',
    's3',
    'maxFileSize',
    'allowedTypes',
    'variants',
    'maxPixels',
    'publicBaseUrl',
    'publicRead',
    'transforms',
  ]);
  const s3raw = r.object('media.s3', o.s3, ['bucket', 'region', 'endpoint', 'forcePathStyle', 'accessKeyId', 'secretAccessKey', 'prefix']);
  const bucket = r.string('S3_BUCKET', env.S3_BUCKET ?? s3raw.bucket);
  const storage = r.string('media.storage', env.MEDIA_STORAGE ?? o.storage, { def: bucket ? 's3' : 'local' }) as string;
  if (storage !== 'local' && storage !== 's3') r.problem('media.storage', 'expected local or s3');
  if (storage === 's3' && !bucket) r.problem('media.s3.bucket', 'required when media.storage is s3 (or set S3_BUCKET)');
  const prefix = r.string('media.s3.prefix', env.S3_PREFIX ?? s3raw.prefix);
  if (prefix !== undefined && !/^[A-Za-z0-9._/-]*$/.test(prefix))
    r.problem('media.s3.prefix', 'expected letters, digits, ".", "_", "-" and "/"');
  const publicBaseUrl = r.string('media.publicBaseUrl', o.publicBaseUrl);
  if (publicBaseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(publicBaseUrl))
    r.problem('media.publicBaseUrl', 'expected an http(s) URL');
  return {
    storage: storage === 's3' ? 's3' : 'local',
    dir: r.string('MEDIA_DIR', env.MEDIA_DIR ?? o.dir, { def: './data/media' }) as string,
    s3: bucket
      ? {
          bucket,
          region: r.string('S3_REGION', env.S3_REGION ?? s3raw.region),
          endpoint: r.string('S3_ENDPOINT', env.S3_ENDPOINT ?? s3raw.endpoint),
          forcePathStyle: r.bool('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE ?? s3raw.forcePathStyle, false),
          accessKeyId: r.string('S3_ACCESS_KEY_ID', env.S3_ACCESS_KEY_ID ?? s3raw.accessKeyId),
          secretAccessKey: r.string('S3_SECRET_ACCESS_KEY', env.S3_SECRET_ACCESS_KEY ?? s3raw.secretAccessKey),
          prefix,
        }
      : undefined,
    maxFileSize: byteSize(r, 'media.maxFileSize', o.maxFileSize, 25 * MiB),
    allowedTypes: typeList(r, o.allowedTypes),
    variants: variantList(r, o.variants),
    maxPixels: r.int('media.maxPixels', o.maxPixels, { def: 70_000_000, min: 1 }) as number,
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, ''),
    publicRead: r.bool('media.publicRead', o.publicRead, true),
    transforms: mediaTransformsSection(r, o.transforms, env),
  };
}

/** Bytes as an integer or a string such as `25MB`, `500kb`, `1.5GiB` (powers of 1024 either way). */
function byteSize(r: ConfigReader, path: string, raw: unknown, def: number): number {
  if (raw === undefined || raw === null) return def;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  const m = typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(raw) : null;
  if (!m) {
    r.problem(path, 'expected a positive number of bytes or a size such as "25MB"');
    return def;
  }
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  return Math.floor(Number(m[1]) * ({ b: 1, k: 1024, m: MiB, g: 1024 * MiB } as Record<string, number>)[unit]);
}

function typeList(r: ConfigReader, raw: unknown): readonly string[] {
  if (raw === undefined || raw === null) return DEFAULT_ALLOWED_TYPES;
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string' || !/^[a-z0-9.+-]+\/[a-z0-9.+-]*$/i.test(t))) {
    r.problem('media.allowedTypes', 'expected a list of MIME types or prefixes such as "image/" or "application/pdf"');
    return DEFAULT_ALLOWED_TYPES;
  }
  return raw.map((t: string) => t.toLowerCase());
}

function variantList(r: ConfigReader, raw: unknown): readonly MediaVariantConfig[] {
  if (raw === undefined || raw === null) return DEFAULT_MEDIA_VARIANTS;
  if (!Array.isArray(raw)) {
    r.problem('media.variants', 'expected a list of {name, width, height, fit, format, quality}');
    return DEFAULT_MEDIA_VARIANTS;
  }
  const names = new Set<string>();
  return raw.map((item, i) => {
    const path = `media.variants[${i}]`;
    const v = r.object(path, item, ['name', 'width', 'height', 'fit', 'format', 'quality']);
    const name = r.string(`${path}.name`, v.name) ?? '';
    if (!VARIANT_NAME.test(name)) r.problem(`${path}.name`, 'expected a lower-case name such as "thumb" (a-z, 0-9, _)');
    if (names.has(name)) r.problem(`${path}.name`, `"${name}" appears twice`);
    names.add(name);
    const width = r.int(`${path}.width`, v.width, { min: 1, max: 10_000 });
    const height = r.int(`${path}.height`, v.height, { min: 1, max: 10_000 });
    if (width === undefined && height === undefined) r.problem(path, 'needs a width, a height or both');
    const fit = r.string(`${path}.fit`, v.fit, { def: 'inside' }) as string;
    if (!FITS.includes(fit)) r.problem(`${path}.fit`, `expected one of ${FITS.join(', ')}`);
    const format = r.string(`${path}.format`, v.format, { def: 'webp' }) as string;
    if (!FORMATS.includes(format)) r.problem(`${path}.format`, `expected one of ${FORMATS.join(', ')}`);
    const quality = r.int(`${path}.quality`, v.quality, { def: 80, min: 1, max: 100 });
    return { name, width, height, fit, format, quality } as MediaVariantConfig;
  });
}
