/**
 * Image transforms on request (docs/media.md, "Image transforms"): the server resizes and converts
 * an image at `GET <media.url>?<params>`. These builders only write that address; they are pure
 * strings, with no request and no dependency, so a front end can call them while rendering, in a
 * browser or on a server.
 *
 * Why they are exact about the query: the server keys its cache of transformed files and checks a
 * signature over the normalised query, so the same transform must always be spelled the same way
 * (parameters sorted by name, `sig` last). A malformed value is refused here, before it becomes a
 * 400 in an `<img>` that nobody sees fail.
 */

/** One transform of an image (docs/media.md, "Image transforms"). */
export interface ImageTransform {
  /** Width in pixels, a positive integer. */
  w?: number;
  /** Height in pixels, a positive integer. */
  h?: number;
  /** How the image fills the `w`×`h` box. */
  fit?: 'cover' | 'contain' | 'inside';
  /** The output format; `auto` lets the server choose by the browser's `Accept` (avif, webp, else jpeg or png). */
  format?: 'webp' | 'avif' | 'jpeg' | 'png' | 'auto';
  /** Quality, an integer from 1 to 100. */
  q?: number;
  /** A preset named in the server's `media.transforms.presets`: always allowed, never signed. */
  preset?: string;
  /**
   * The signature of free parameters, made by the server (which holds the secret); needed unless
   * the server sets `media.transforms.public`. It covers the exact query, so it goes last.
   */
  sig?: string;
  /**
   * The API base (`https://cms.example.com/api`): address the file on the API server itself, at
   * `<base>/media/files/<filename>`, when `media.url` points at a CDN or bucket that cannot transform.
   */
  base?: string;
}

/** The least of a media record these builders read (a `Media` fits). */
type ImageSource = { url: string; filename?: string };

const FITS: readonly string[] = ['cover', 'contain', 'inside'] satisfies NonNullable<ImageTransform['fit']>[];
const FORMATS: readonly string[] = ['webp', 'avif', 'jpeg', 'png', 'auto'] satisfies NonNullable<ImageTransform['format']>[];

const isPositiveInteger = (v: number) => Number.isInteger(v) && v > 0;

/** The transform's query parameters in the server's order: by name, `sig` last. Throws on a bad value. */
export function transformParams(t: ImageTransform): string[] {
  const params: string[] = [];
  // Sorted by name: fit, format, h, preset, q, w.
  if (t.fit !== undefined) {
    if (!FITS.includes(t.fit)) throw new RangeError(`imageUrl: fit must be one of ${FITS.join(', ')}, got ${String(t.fit)}`);
    params.push(`fit=${t.fit}`);
  }
  if (t.format !== undefined) {
    if (!FORMATS.includes(t.format)) throw new RangeError(`imageUrl: format must be one of ${FORMATS.join(', ')}, got ${String(t.format)}`);
    params.push(`format=${t.format}`);
  }
  if (t.h !== undefined) {
    if (!isPositiveInteger(t.h)) throw new RangeError(`imageUrl: h must be a positive integer, got ${String(t.h)}`);
    params.push(`h=${t.h}`);
  }
  if (t.preset !== undefined) {
    if (t.preset === '') throw new RangeError('imageUrl: preset must be a non-empty name');
    params.push(`preset=${encodeURIComponent(t.preset)}`);
  }
  if (t.q !== undefined) {
    if (!Number.isInteger(t.q) || t.q < 1 || t.q > 100) {
      throw new RangeError(`imageUrl: q must be an integer from 1 to 100, got ${String(t.q)}`);
    }
    params.push(`q=${t.q}`);
  }
  if (t.w !== undefined) {
    if (!isPositiveInteger(t.w)) throw new RangeError(`imageUrl: w must be a positive integer, got ${String(t.w)}`);
    params.push(`w=${t.w}`);
  }
  if (t.sig !== undefined) {
    if (t.sig === '') throw new RangeError('imageUrl: sig must be a non-empty signature');
    params.push(`sig=${t.sig}`);
  }
  return params;
}

/**
 * The address of `media` transformed by `t`: `media.url` (or `<t.base>/media/files/<filename>`)
 * with the parameters sorted by name and `sig` last; without parameters, the address unchanged
 * (the original file). Throws a `RangeError` for a value the server would refuse, and a
 * `TypeError` when `base` is given for a record without `filename`.
 */
export function imageUrl(media: ImageSource, t: ImageTransform = {}): string {
  let url = media.url;
  if (t.base !== undefined) {
    if (!media.filename) throw new TypeError('imageUrl: base needs media.filename (the file key under /media/files/)');
    url = `${t.base.replace(/\/+$/, '')}/media/files/${media.filename}`;
  }
  const params = transformParams(t);
  if (params.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${params.join('&')}`;
}

/**
 * A `srcset` value: `imageUrl(media, {...t, w})` and its `<w>w` descriptor for each width, in
 * ascending order without repeats, joined by `", "`. There is no `sig`: a signature covers one
 * exact query, so each width needs its own, made on the server. `w` is a free parameter, so the
 * result serves as it is only where the server sets `media.transforms.public`. Throws a
 * `RangeError` for an empty list or a bad width.
 */
export function srcSet(media: ImageSource, widths: readonly number[], t: Omit<ImageTransform, 'w' | 'sig'> = {}): string {
  if (widths.length === 0) throw new RangeError('srcSet: widths must name at least one width');
  // A caller without the types could still pass these; a signature of one width is wrong for the others.
  const { w: _w, sig: _sig, ...rest } = t as ImageTransform;
  return [...new Set(widths)]
    .sort((a, b) => a - b)
    .map((w) => `${imageUrl(media, { ...rest, w })} ${w}w`)
    .join(', ');
}
