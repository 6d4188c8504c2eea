import { createHmac } from 'node:crypto';
import { imageUrl, srcSet, transformParams, type ImageTransform } from './image-url.js';

/**
 * Signed transform URLs for front ends that render on a server holding `media.transforms.secret`
 * (docs/media.md, "Signed URLs"): HMAC-SHA256 over `<file key>?<query>`, base64url, as `sig`.
 * Node only (`@vellum/client/node`): the secret must never reach a browser.
 */
type SignableSource = { url: string; filename: string };

function signature(media: SignableSource, t: Omit<ImageTransform, 'sig'>, secret: string): string {
  const query = transformParams({ ...t, base: undefined }).join('&');
  return createHmac('sha256', secret).update(`${media.filename}?${query}`).digest('base64url');
}

/** `imageUrl` with its signature. */
export function signedImageUrl(media: SignableSource, t: Omit<ImageTransform, 'sig'>, secret: string): string {
  return imageUrl(media, { ...t, sig: signature(media, t, secret) });
}

/** `srcSet` with each width signed on its own. */
export function signedSrcSet(
  media: SignableSource,
  widths: readonly number[],
  t: Omit<ImageTransform, 'w' | 'sig'>,
  secret: string,
): string {
  if (widths.length === 0) return srcSet(media, widths, t);
  return [...new Set(widths)]
    .sort((a, b) => a - b)
    .map((w) => `${signedImageUrl(media, { ...t, w }, secret)} ${w}w`)
    .join(', ');
}
