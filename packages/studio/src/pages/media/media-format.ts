import type { Media } from '@vellum/client';

/** The type filters of the library: each is one `type` of `GET /media` (docs/api.md, "Media"). */
export const TYPE_FILTERS = [
  { value: '', label: 'All types' },
  { value: 'image/', label: 'Images' },
  { value: 'video/', label: 'Video' },
  { value: 'audio/', label: 'Audio' },
  // PDF and ZIP (the default allowed types under application/); plain text and CSV are "Text".
  { value: 'application/', label: 'Documents' },
  { value: 'text/', label: 'Text' },
] as const;

/** `1.4 MB`, `820 KB`, `12 B`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a person calls the file: its title, else the name it was uploaded with. */
export function mediaName(m: Media): string {
  return m.title || m.originalFilename || m.filename;
}

/** The small image of a grid cell: the `thumb` variant of raster images, nothing for other files. */
export function thumbUrl(m: Media): string | undefined {
  return m.variants.thumb ?? (m.mimeType.startsWith('image/') ? m.url : undefined);
}

/** The file's address as others would paste it: absolute, on this origin unless `media.publicBaseUrl` made it absolute already. */
export function absoluteUrl(m: Media): string {
  return new URL(m.url, window.location.origin).href;
}

/** A short label for files without a picture: `PDF`, `MP4`, `TXT`. */
export function typeLabel(m: Media): string {
  const ext = m.filename.includes('.') ? m.filename.slice(m.filename.lastIndexOf('.') + 1) : (m.mimeType.split('/')[1] ?? '');
  return ext.toUpperCase().slice(0, 5) || 'FILE';
}
