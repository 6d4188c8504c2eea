import type { VellumConfig } from '../../config/types.js';
import type { StoredMedia } from '../../storage/media-store.js';

/** The spec's media record, plus what an image component needs without another request. */
export interface ApiMedia {
  _id: string;
  filename: string;
  originalFilename: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  alt: string | null;
  title: string | null;
  url: string;
  /** Variant name → path (the spec's shape). */
  variants: Record<string, string>;
  placeholder?: string;
  dominantColor?: string;
  /** Hex SHA-256 of the original: lets clients skip uploading a file twice. */
  sha256: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

/** Origin-relative `/api/media/files/<key>`, or absolute under `media.publicBaseUrl` (DESIGN.md §10). */
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
