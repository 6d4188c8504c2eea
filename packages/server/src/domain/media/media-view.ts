import type { Media } from '@vellum/client';
import type { VellumConfig } from '../../config/types.js';
import type { StoredMedia } from '../../storage/media/media-store.js';

/**
 * The spec's media record, plus what an image component needs without another request. The
 * client package owns this wire type and the server builds it (docs/architecture.md, "Packages"):
 * a type-only import, so no client code runs in the server.
 */
export type ApiMedia = Media;

/**
 * Where a file is read (docs/api.md, "Media"): under `media.publicBaseUrl` (a CDN, a public
 * bucket); else on this server, absolute when `server.publicUrl` says where it is, so a front end
 * on another origin can put it in an `<img src>`; else origin-relative, `/api/media/files/<key>`.
 */
export function mediaFileUrl(config: VellumConfig, key: string): string {
  const { publicBaseUrl } = config.media;
  if (publicBaseUrl) return `${publicBaseUrl}/${key}`;
  const origin = config.server.publicUrl?.replace(/\/+$/, '') ?? '';
  return `${origin}${config.server.basePath}/media/files/${key}`;
}

export function toApiMedia(config: VellumConfig, m: StoredMedia): ApiMedia {
  return {
    _id: m.id,
    filename: m.filename,
    originalFilename: m.originalFilename,
    mimeType: m.mimeType,
    size: m.size,
    ...(m.width !== null ? { width: m.width } : {}),
    ...(m.height !== null ? { height: m.height } : {}),
    alt: m.alt,
    title: m.title,
    url: mediaFileUrl(config, m.filename),
    variants: Object.fromEntries(Object.entries(m.variants).map(([name, v]) => [name, mediaFileUrl(config, v.key)])),
    ...(m.placeholder !== null ? { placeholder: m.placeholder } : {}),
    ...(m.dominantColor !== null ? { dominantColor: m.dominantColor } : {}),
    ...(m.focalPoint !== null ? { focalPoint: m.focalPoint } : {}),
    sha256: m.sha256,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    createdBy: m.createdBy,
  };
}
