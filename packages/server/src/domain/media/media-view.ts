import type { Media } from '@vellum/client';
import type { VellumConfig } from '../../config/types.js';
import type { StoredMedia } from '../../storage/media/media-store.js';

/**
 * The spec's media record, plus what an image component needs without another request. The
 * client package owns this wire type and the server builds it (docs/architecture.md, "Packages"):
 * a type-only import, so no client code runs in the server.
 */
export type ApiMedia = Media;

/** Origin-relative `/api/media/files/<key>`, or absolute under `media.publicBaseUrl` (docs/api.md, "Media"). */
export function mediaFileUrl(config: VellumConfig, key: string): string {
  return `${config.media.publicBaseUrl ?? `${config.server.basePath}/media/files`}/${key}`;
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
    sha256: m.sha256,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    createdBy: m.createdBy,
  };
}
