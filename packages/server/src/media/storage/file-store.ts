import type { Readable } from 'node:stream';

/** An inclusive byte range of a stored object (`bytes=start-end` in HTTP terms). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  /** The bytes (the whole object, or the requested range). */
  body: Readable;
  /** Size of the whole object in bytes, whatever range was asked for. */
  size: number;
}

/**
 * Where media bytes live: a local directory or an S3-compatible bucket. Keys are flat names the
 * service generates (`<id>.<ext>`, `<id>-<variant>.<ext>`); every adapter refuses any other shape
 * (assertSafeKey), so no caller-supplied text ever reaches a path or an object name.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * Stores `body` under `key`. The object appears whole or not at all: local writes go to a temp
   * file renamed into place; S3 makes an object visible only when its upload completes.
   */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<void>;
  /** The object, or one byte range of it; undefined when there is no such object. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  /** Size in bytes, or undefined when missing. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Removes the objects; missing ones are not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /** Every key in the store (tests and maintenance; not used on request paths). */
  list(): Promise<string[]>;
  close(): Promise<void>;
}
