/**
 * The Content-Type of a stored file from the extension the service gave it at upload (derived
 * from the sniffed type). Anything else is served as opaque bytes.
 */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  xml: 'application/xml',
  json: 'application/json',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  zip: 'application/zip',
};

export function mimeForExtension(ext: string): string {
  return TYPES[ext.toLowerCase()] ?? 'application/octet-stream';
}
