/**
 * A media record as the API returns it: the spec's record plus `sha256`, `placeholder`,
 * `dominantColor`, `updatedAt` and `createdBy` (docs/api.md, "Media"). This is the one
 * declaration: the server builds exactly this type (`ApiMedia` in its domain/media/media-view.ts).
 */
export interface Media {
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
  /** Variant name → path. */
  variants: Record<string, string>;
  placeholder?: string;
  dominantColor?: string;
  /** Where `fit=cover` transforms crop around (0–1 from the left and the top); absent: the centre (docs/media.md). */
  focalPoint?: { x: number; y: number };
  /** Lowercase hex SHA-256 of the original file's bytes. */
  sha256: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export type MediaOrderField = 'createdAt' | 'updatedAt' | 'filename' | 'originalFilename' | 'size' | 'mimeType';

export interface MediaListQuery {
  limit?: number;
  offset?: number;
  /** A MIME prefix (`image/`) or an exact type. */
  type?: string;
  search?: string;
  sha256?: string;
  orderBy?: MediaOrderField;
  order?: 'asc' | 'desc';
}

export interface MediaUpdate {
  alt?: string | null;
  title?: string | null;
  /** 0–1 from the left and the top; `null` goes back to the centre. */
  focalPoint?: { x: number; y: number } | null;
}

/** Reads a file chunk by chunk. */
export interface ChunkReader {
  /** `undefined` at the end. */
  next(): Promise<Uint8Array | undefined>;
  close(): Promise<void>;
}

/** A file of known size that can be opened (again) for reading: how `@vellum/client/node` hands over a path. */
export interface UploadSource {
  name: string;
  size: number;
  type?: string;
  open(): Promise<ChunkReader>;
}

/**
 * A Blob/File, an `UploadSource`, or a file path. Paths are read only by the client of
 * `@vellum/client/node` (the main entry has no file system: it runs in browsers).
 */
export type UploadInput = string | Blob | UploadSource;

export interface UploadMediaOptions {
  /** The name sent to the server; defaults to the path's last segment, the File's name, or `upload`. */
  filename?: string;
  alt?: string;
  title?: string;
  /** Only a hint: the server decides the type from the bytes. */
  contentType?: string;
  /** Called each time the request body hands out a chunk; the last call has `sentBytes === totalBytes`. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  signal?: AbortSignal;
}
