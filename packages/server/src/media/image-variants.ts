import { availableParallelism } from 'node:os';
import sharp, { type Metadata, type OutputInfo, type ResizeOptions, type Sharp, type SharpOptions } from 'sharp';
import type { MediaVariantConfig } from '../config/types.js';
import { limitConcurrency } from './limit-concurrency.js';
import { MediaError } from './media-error.js';
import { retryOnce } from './retry-once.js';

// Every upload is decoded once; libvips' operation cache would only pin decoded pixels and open
// files between unrelated uploads.
sharp.cache(false);

export type VariantSpec = MediaVariantConfig;

export const DEFAULT_VARIANTS: readonly VariantSpec[] = Object.freeze([
  Object.freeze<VariantSpec>({ name: 'thumb', width: 200, height: 200, fit: 'cover', format: 'webp', quality: 80 }),
  Object.freeze<VariantSpec>({ name: 'medium', width: 800, fit: 'inside', format: 'webp', quality: 80 }),
]);

export interface RenderedVariant {
  name: string;
  ext: string;
  contentType: string;
  data: Buffer;
  width: number;
  height: number;
}

export interface ProcessedImage {
  width: number;
  height: number;
  placeholder: string;
  dominantColor: string;
  variants: RenderedVariant[];
}

/**
 * Formats handed to libvips' decoders. Anything else sharp could open (SVG, PDF, ImageMagick
 * formats) is refused, so a renamed SVG cannot reach librsvg through this path. AVIF reports as heif.
 */
const DECODABLE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

/** Largest long edge of the one downscaled decode that variants, placeholder and colour are derived from. */
const INTERMEDIATE_EDGE = 1600;
const SUMMARY_EDGE = 64;
const PLACEHOLDER_EDGE = 16;

const FORMATS = {
  webp: { ext: 'webp', contentType: 'image/webp' },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  avif: { ext: 'avif', contentType: 'image/avif' },
} as const;

/**
 * Options for every decode. failOn 'error' (which includes 'truncated') rejects truncated and
 * corrupt pixel data, while the default 'warning' would also reject the many camera and phone
 * JPEGs whose only fault is a benign libjpeg warning such as extraneous bytes before a marker.
 * `pages: 1` keeps animated GIF/WebP to their first frame.
 */
function decodeOptions(maxPixels: number): SharpOptions {
  return { limitInputPixels: maxPixels, failOn: 'error', pages: 1 };
}

/** Header-only read (no pixel decode): oriented width/height; a MediaError `image-too-large` when width*height > maxPixels. */
export async function probeImage(path: string, maxPixels: number): Promise<{ width: number; height: number }> {
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError(`maxPixels must be a positive integer, got ${maxPixels}`);
  let metadata: Metadata;
  try {
    // The pixel limit is checked below instead of by sharp, whose refusal does not say how large
    // the image is; metadata() reads only the header, so there is nothing to protect here.
    metadata = await sharp(path, { ...decodeOptions(maxPixels), limitInputPixels: false }).metadata();
  } catch (cause) {
    throw new MediaError('unreadable-image', 'the file is not a readable image', {}, { cause });
  }
  if (!DECODABLE_FORMATS.has(metadata.format)) {
    throw new MediaError('unsupported-image', `unsupported image format: ${metadata.format}`);
  }
  const { width, height } = metadata.autoOrient;
  if (width * height > maxPixels) {
    const message = `image is ${width}×${height} (${width * height} pixels), over the limit of ${maxPixels} pixels`;
    throw new MediaError('image-too-large', message, { width, height, maxPixels });
  }
  return { width, height };
}

// libvips already spreads each operation over all cores, so one image per core keeps the CPUs
// busy while bounding memory to that many decoded images however many uploads arrive at once.
export const oneImagePerCore = limitConcurrency(Math.max(1, availableParallelism()));

/** Everything an upload needs: probe (bomb check first, before any decode), then each variant (retried once on failure, then a MediaError `variant-failed` naming it), placeholder and dominant colour. */
export function processImage(path: string, opts: { variants: readonly VariantSpec[]; maxPixels: number }): Promise<ProcessedImage> {
  return oneImagePerCore(() => processNow(path, opts));
}

interface RawImage {
  data: Buffer;
  info: OutputInfo;
}

async function processNow(path: string, { variants, maxPixels }: { variants: readonly VariantSpec[]; maxPixels: number }) {
  const source = await probeImage(path, maxPixels);
  const plans = variants.map((spec) => {
    const size = plannedSize(spec, source.width, source.height);
    return { spec, size, needed: neededScale(spec, size, source) };
  });
  const intermediate = await retryOnce(() =>
    toRaw(sharp(path, decodeOptions(maxPixels)).autoOrient().resize(intermediateBox(plans, source))),
  ).catch((cause: unknown) => {
    throw new MediaError('unreadable-image', 'the image could not be decoded', {}, { cause });
  });
  const scale = Math.min(intermediate.info.width / source.width, intermediate.info.height / source.height);

  const rendered: RenderedVariant[] = [];
  for (const { spec, size, needed } of plans) {
    // A variant needing more detail than the intermediate holds goes back to the original file.
    const input = () =>
      scale >= 1 || needed <= scale ? fromRaw(intermediate, maxPixels) : sharp(path, decodeOptions(maxPixels)).autoOrient();
    const variant = await retryOnce(() => renderVariant(input(), spec, size)).catch((cause: unknown) => {
      throw new MediaError('variant-failed', `variant "${spec.name}" could not be rendered`, { variant: spec.name }, { cause });
    });
    rendered.push(variant);
  }

  const summary = await retryOnce(() => summarise(intermediate, maxPixels)).catch((cause: unknown) => {
    throw new MediaError('unreadable-image', 'placeholder or colour could not be computed', {}, { cause });
  });
  return { width: source.width, height: source.height, ...summary, variants: rendered };
}

/**
 * The one decode: just large enough for the most demanding variant it can serve, since the
 * smaller it is, the more of the work JPEG shrink-on-load does while decoding (a 4000×3000 photo
 * for an 800 px variant decodes at a quarter of its size). Its long edge stays within
 * INTERMEDIATE_EDGE and at least SUMMARY_EDGE; dimensions are rounded up so that rounding never
 * leaves it a pixel short of a variant.
 */
function intermediateBox(plans: readonly { needed: number }[], source: Size): ResizeOptions {
  const longEdge = Math.max(source.width, source.height);
  const cap = Math.min(1, INTERMEDIATE_EDGE / longEdge);
  const servable = plans.map((p) => p.needed).filter((needed) => needed <= cap);
  const scale = Math.max(Math.min(1, SUMMARY_EDGE / longEdge), ...servable);
  return {
    width: Math.ceil(source.width * scale),
    height: Math.ceil(source.height * scale),
    fit: 'inside',
    withoutEnlargement: true,
  };
}

function boxInside(edge: number): ResizeOptions {
  return { width: edge, height: edge, fit: 'inside', withoutEnlargement: true };
}

function toRaw(image: Sharp): Promise<RawImage> {
  return image.raw().toBuffer({ resolveWithObject: true });
}

function fromRaw({ data, info }: RawImage, maxPixels: number): Sharp {
  return sharp(data, {
    ...decodeOptions(maxPixels),
    raw: { width: info.width, height: info.height, channels: info.channels },
  });
}

interface Size {
  width: number;
  height: number;
}

/** Rounding as libvips does it (C rint: halves to even), so sizes match what sharp itself would produce. */
function rint(value: number): number {
  const down = Math.floor(value);
  const fraction = value - down;
  if (fraction !== 0.5) return Math.round(value);
  return down % 2 === 0 ? down : down + 1;
}

function scaled(width: number, height: number, shrink: number): Size {
  return { width: Math.max(1, rint(width / shrink)), height: Math.max(1, rint(height / shrink)) };
}

/**
 * The exact output size of a variant for an oriented source, never larger than the source.
 * Computed up front so that a variant has the same size whether it is rendered from the
 * intermediate or from the original. A `cover` or `contain` box bigger than a small source
 * shrinks with its aspect ratio kept — a 100×80 image gets an 80×80 thumb rather than an
 * upscaled 200×200 one or sharp's uncropped 100×80.
 */
function plannedSize(spec: VariantSpec, width: number, height: number): Size {
  const { width: w, height: h } = spec;
  if (w === undefined && h === undefined) return { width, height };
  if (w === undefined || h === undefined) {
    const shrink = w !== undefined ? width / w : height / h!;
    return scaled(width, height, Math.max(1, shrink));
  }
  switch (spec.fit) {
    case 'inside':
      return scaled(width, height, Math.max(1, width / w, height / h));
    case 'outside':
      return scaled(width, height, Math.max(1, Math.min(width / w, height / h)));
    case 'fill':
      return { width: Math.min(w, width), height: Math.min(h, height) };
    case 'cover':
    case 'contain': {
      const factor = Math.min(1, spec.fit === 'cover' ? Math.min(width / w, height / h) : Math.max(width / w, height / h));
      return { width: Math.max(1, rint(w * factor)), height: Math.max(1, rint(h * factor)) };
    }
  }
}

/** How much of the source's resolution a variant needs, as a fraction of its oriented size. */
function neededScale(spec: VariantSpec, size: Size, source: Size): number {
  const x = size.width / source.width;
  const y = size.height / source.height;
  // A boxed contain pads the short side, so only the image inside the box needs the detail.
  return isBoxed(spec) && spec.fit === 'contain' ? Math.min(x, y) : Math.max(x, y);
}

/** cover and contain with both dimensions: the output is the box itself, cropped or padded. */
function isBoxed(spec: VariantSpec): boolean {
  return spec.width !== undefined && spec.height !== undefined && (spec.fit === 'cover' || spec.fit === 'contain');
}

async function renderVariant(input: Sharp, spec: VariantSpec, size: Size): Promise<RenderedVariant> {
  // The planned size is final, so apart from a box to crop or pad, a variant is a plain resize to
  // it: the aspect ratio is off by under a pixel, and the size never depends on the input used.
  const resized = input.resize({
    ...size,
    fit: isBoxed(spec) ? spec.fit : 'fill',
    withoutEnlargement: true,
    background: { r: 0, g: 0, b: 0, alpha: 0 },
  });
  const { data, info } = await encode(resized, spec).toBuffer({ resolveWithObject: true });
  return { name: spec.name, ...FORMATS[spec.format], data, width: info.width, height: info.height };
}

function encode(image: Sharp, { format, quality }: VariantSpec): Sharp {
  switch (format) {
    case 'webp':
      return image.webp({ quality });
    case 'avif':
      return image.avif({ quality });
    case 'png':
      return image.png();
    case 'jpeg':
      // JPEG has no alpha; without flattening, transparent pixels would turn black.
      return image.flatten({ background: '#ffffff' }).jpeg({ quality });
  }
}

async function summarise(intermediate: RawImage, maxPixels: number): Promise<{ placeholder: string; dominantColor: string }> {
  // stats() reads its input, not the pipeline's output, so the small copy is materialised first.
  const small = await toRaw(fromRaw(intermediate, maxPixels).resize(boxInside(SUMMARY_EDGE)));
  const { dominant } = await fromRaw(small, maxPixels).stats();
  const placeholder = await fromRaw(small, maxPixels)
    .resize(boxInside(PLACEHOLDER_EDGE))
    .blur(1)
    .webp({ quality: 50, alphaQuality: 50 })
    .toBuffer();
  return {
    placeholder: `data:image/webp;base64,${placeholder.toString('base64')}`,
    dominantColor: `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`,
  };
}
