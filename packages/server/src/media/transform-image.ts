import sharp, { type Sharp } from 'sharp';
import { MediaError } from './media-error.js';
import { oneImagePerCore } from './image-variants.js';

export interface ImageTransformSpec {
  w?: number;
  h?: number;
  fit: 'cover' | 'contain' | 'inside';
  format: 'webp' | 'avif' | 'jpeg' | 'png';
  q: number;
  /** `cover` crops around it (0–1 from the left and top); the centre when absent. */
  focal?: { x: number; y: number };
}

const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg', png: 'image/png' } as const;

/**
 * Renders one transform (docs/media.md, "Image transforms") from the source's bytes: oriented,
 * never enlarged (a box larger than the source shrinks with its aspect ratio kept, as the
 * upload's variants do), `cover` cropped around the focal point rather than the centre. One
 * image per core at a time, shared with uploads, so a burst of cold transforms cannot hold more
 * decoded images than cores.
 */
export function transformImage(
  source: Buffer,
  spec: ImageTransformSpec,
  maxPixels: number,
): Promise<{ data: Buffer; contentType: string; width: number; height: number }> {
  return oneImagePerCore(async () => {
    let image: Sharp;
    let width: number;
    let height: number;
    try {
      const meta = await sharp(source, { limitInputPixels: false }).metadata();
      ({ width, height } = meta.autoOrient);
      if (width * height > maxPixels)
        throw new MediaError('image-too-large', `image is ${width}×${height}, over the pixel limit`, { width, height, maxPixels });
      image = sharp(source, { limitInputPixels: maxPixels, failOn: 'error', pages: 1 }).autoOrient();
    } catch (cause) {
      if (cause instanceof MediaError) throw cause;
      throw new MediaError('unreadable-image', 'the file is not a readable image', {}, { cause });
    }
    const shaped = shape(image, spec, width, height);
    const { data, info } = await encode(shaped, spec)
      .toBuffer({ resolveWithObject: true })
      .catch((cause: unknown) => {
        throw new MediaError('unreadable-image', 'the image could not be transformed', {}, { cause });
      });
    return { data, contentType: CONTENT_TYPES[spec.format], width: info.width, height: info.height };
  });
}

function shape(image: Sharp, { w, h, fit, focal }: ImageTransformSpec, width: number, height: number): Sharp {
  if (w === undefined && h === undefined) return image;
  if (w === undefined || h === undefined || fit === 'inside')
    return image.resize({ width: w, height: h, fit: 'inside', withoutEnlargement: true });
  // A box larger than the source, scaled down with its aspect ratio kept until it fits.
  const shrink = Math.min(1, fit === 'cover' ? Math.min(width / w, height / h) : Math.max(width / w, height / h));
  const box = { width: Math.max(1, Math.round(w * shrink)), height: Math.max(1, Math.round(h * shrink)) };
  if (fit === 'contain') return image.resize({ ...box, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } });
  // cover: scale so the box is filled, then take the box-sized window centred on the focal point,
  // moved back inside the image where the point lies near an edge.
  const scale = Math.max(box.width / width, box.height / height);
  const scaled = { width: Math.max(box.width, Math.round(width * scale)), height: Math.max(box.height, Math.round(height * scale)) };
  const point = focal ?? { x: 0.5, y: 0.5 };
  const left = clamp(Math.round(point.x * scaled.width - box.width / 2), 0, scaled.width - box.width);
  const top = clamp(Math.round(point.y * scaled.height - box.height / 2), 0, scaled.height - box.height);
  return image.resize({ ...scaled, fit: 'fill' }).extract({ left, top, ...box });
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function encode(image: Sharp, { format, q }: ImageTransformSpec): Sharp {
  switch (format) {
    case 'webp':
      return image.webp({ quality: q });
    case 'avif':
      // effort 2 of 0–9 (the default is 4): a transform is rendered while a browser waits for it.
      return image.avif({ quality: q, effort: 2 });
    case 'png':
      return image.png();
    case 'jpeg':
      // JPEG has no alpha; without flattening, transparent pixels would turn black.
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: false });
  }
}
