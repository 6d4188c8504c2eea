import type { Media } from '@vellum/client/node';

/**
 * The lines of a `vellum export` file (NDJSON: one JSON object per line), in this order: the
 * header, the media (each record, then with `--media include` its bytes and an end line), the
 * documents type by type, and the trailer, whose absence tells a truncated file. The format is
 * described for users in docs/cli.md, "Export and import".
 */
export const EXPORT_VERSION = 1;

/** Bytes of a file per `media-data` line, before base64. */
export const MEDIA_CHUNK_BYTES = 256 * 1024;

export interface HeaderLine {
  kind: 'vellum-export';
  version: number;
  exportedAt: string;
  /** The API base URL exported from; a `reference` import fetches the files from there. */
  source: string;
  types: string[];
  media: MediaMode;
}

export interface MediaLine {
  kind: 'media';
  record: Media;
}

export interface MediaDataLine {
  kind: 'media-data';
  id: string;
  seq: number;
  data: string;
}

export interface MediaEndLine {
  kind: 'media-end';
  id: string;
  sha256: string;
}

/** One version of a document: its fields and status (`GET …/revisions` items). */
export interface DocumentVersion {
  _rev: number;
  _status: string;
  data: Record<string, unknown>;
}

export interface DocumentLine {
  kind: 'document';
  type: string;
  /** The current version as `GET /documents/:type/:id` returns it. */
  document: Record<string, unknown> & { _id: string; _status: string; _rev: number };
  /** The earlier versions, oldest first (the current one is not repeated). */
  revisions: DocumentVersion[];
}

export interface ExportCounts {
  media: number;
  documents: number;
  revisions: number;
}

export interface EndLine {
  kind: 'end';
  counts: ExportCounts;
}

export type ExportLine = HeaderLine | MediaLine | MediaDataLine | MediaEndLine | DocumentLine | EndLine;

export type MediaMode = 'include' | 'reference';

/** A document's fields: everything but the system fields (`_id`, `_status`, `_rev`, `_createdAt`…). */
export function fieldsOf(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith('_')));
}
