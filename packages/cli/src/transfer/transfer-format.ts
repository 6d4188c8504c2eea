import type { Media, Schedule } from '@vellum/client/node';

/**
 * The lines of a `vellum export` file (NDJSON: one JSON object per line), in this order: the
 * header, the media (each record, then with `--media include` its bytes and an end line), the
 * documents type by type (each with its pending draft, if any), the pending schedules, and the
 * trailer, whose absence tells a truncated file. The format is described for users in
 * docs/cli.md, "Export and import".
 */
export const EXPORT_VERSION = 2;

/**
 * The version of an export whose source has content locales (docs/localization.md): its header
 * names them (`locales`) and its documents, revisions and drafts are in the `locale=*` shape, each
 * localized field `{<code>: value}`. A CLI that reads only version 2 refuses it rather than write
 * those objects as one locale's values; a source without locales still writes version 2.
 */
export const LOCALIZED_EXPORT_VERSION = 3;

/** The `locale` of every read and write of a localized export: all locales at once. */
export const ALL_LOCALES = '*';

/**
 * The versions an import reads. Version 1 (before drafts and schedules) has no `draft` on its
 * document lines, no `schedule` lines and no `drafts`/`schedules` counts: it imports as it did.
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2, LOCALIZED_EXPORT_VERSION];

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
  /** Version 3: the source's content locales, default first; documents are in the `locale=*` shape. */
  locales?: string[];
  /**
   * What the file is about to hold, counted before its first line (files of older CLIs have
   * none): the progress bars' totals from the start, and what an import checks its permissions
   * against before it writes anything. The trailer's counts are what was written.
   */
  contents?: ExportContents;
}

export interface ExportContents {
  media: number;
  /** Documents by type. */
  documents: Record<string, number>;
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
  /** Version 2: the pending draft of a published document that has one (docs/drafts.md). */
  draft?: PendingDraft;
}

/** A pending draft: its own `_rev` and its fields, as `GET …?perspective=drafts` serves them. */
export interface PendingDraft {
  _rev: number;
  data: Record<string, unknown>;
}

/** Version 2: a pending schedule (docs/schedules.md) of an exported type, after every document. */
export interface ScheduleLine {
  kind: 'schedule';
  schedule: Schedule;
}

export interface ExportCounts {
  media: number;
  documents: number;
  revisions: number;
  /** Version 2: the document lines that carry a pending draft. */
  drafts?: number;
  /** Version 2: the `schedule` lines. */
  schedules?: number;
}

export interface EndLine {
  kind: 'end';
  counts: ExportCounts;
}

export type ExportLine = HeaderLine | MediaLine | MediaDataLine | MediaEndLine | DocumentLine | ScheduleLine | EndLine;

export type MediaMode = 'include' | 'reference';

/** A document's fields: everything but the system fields (`_id`, `_status`, `_rev`, `_createdAt`…). */
export function fieldsOf(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith('_')));
}
