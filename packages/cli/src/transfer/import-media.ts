import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Media, VellumClient } from '@vellum/client/node';
import { fetchMediaFile } from './fetch-media-file.js';
import { errorText, isItemFailure, ItemError } from './error-text.js';
import { isNotFound } from './is-not-found.js';
import { whenNotLimited } from './when-not-limited.js';

export type MediaOutcome = { status: 'uploaded' | 'skipped' } | { status: 'failed'; error: string };

/** A file being received from `media-data` lines: spooled to a temp file, hashed on the way. */
interface Spool {
  record: Media;
  path: string;
  file: WriteStream;
  hash: ReturnType<typeof createHash>;
  size: number;
  nextSeq: number;
}

/**
 * The media half of an import: one file at a time, spooled to a temp directory (never held in
 * memory), checked against the SHA-256 of its record, and uploaded with its `_id` so documents'
 * image and file fields stay valid without rewriting.
 */
export class MediaImporter {
  private dir?: string;
  private spool?: Spool;

  constructor(private readonly client: VellumClient) {}

  /** A record: `undefined` when it is already on the target with the same bytes (nothing to receive), else the start of a spool. */
  async begin(record: Media): Promise<MediaOutcome | undefined> {
    await this.drop();
    const present = await this.existing(record._id);
    if (present) return sameFile(present, record);
    this.dir ??= await mkdtemp(join(tmpdir(), 'vellum-import-'));
    const path = join(this.dir, randomBytes(8).toString('hex'));
    this.spool = { record, path, file: createWriteStream(path), hash: createHash('sha256'), size: 0, nextSeq: 0 };
    return undefined;
  }

  /** The id of the file being received, if any. */
  get pending(): string | undefined {
    return this.spool?.record._id;
  }

  /** Whether a `media-data` or `media-end` line belongs to the file being received. */
  receiving(id: string): boolean {
    return this.spool?.record._id === id;
  }

  async data(seq: number, base64: string): Promise<void> {
    const s = this.spool!;
    if (seq !== s.nextSeq) throw new ItemError(`media ${s.record._id}: chunk ${seq} where ${s.nextSeq} was expected`);
    s.nextSeq++;
    await this.append(Buffer.from(base64, 'base64'));
  }

  private async append(bytes: Buffer): Promise<void> {
    const s = this.spool!;
    s.hash.update(bytes);
    s.size += bytes.length;
    if (!s.file.write(bytes)) await new Promise<void>((resolve) => s.file.once('drain', () => resolve()));
  }

  /** The last chunk arrived: check the bytes, upload them. */
  async end(): Promise<MediaOutcome> {
    const s = this.spool!;
    this.spool = undefined;
    try {
      s.file.end();
      await finished(s.file);
      const sha256 = s.hash.digest('hex');
      if (sha256 !== s.record.sha256) return { status: 'failed', error: 'the bytes in the file do not match the SHA-256 of the record' };
      await whenNotLimited(() => this.upload(s.record, s.path, s.size));
      return { status: 'uploaded' };
    } catch (err) {
      if (!isItemFailure(err)) throw err;
      return { status: 'failed', error: errorText(err) };
    } finally {
      await rm(s.path, { force: true });
    }
  }

  /**
   * `reference` exports: the file is read from the source server (through `sourceClient` when
   * given, for its token), then uploaded like an included one.
   */
  async fromSource(record: Media, source: string, sourceClient: VellumClient | undefined): Promise<MediaOutcome> {
    try {
      const started = await this.begin(record);
      if (started) return started;
      for await (const bytes of await fetchMediaFile(record, source, sourceClient)) await this.append(bytes);
      return await this.end();
    } catch (err) {
      await this.drop();
      if (!isItemFailure(err)) throw err;
      return { status: 'failed', error: errorText(err) };
    }
  }

  /** Drops a file whose end never came (a truncated export), and the temp directory. */
  async close(): Promise<void> {
    await this.drop();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  /** Drops the file being received. */
  async drop(): Promise<void> {
    const s = this.spool;
    if (!s) return;
    this.spool = undefined;
    s.file.destroy();
    await rm(s.path, { force: true });
  }

  private async existing(id: string): Promise<Media | undefined> {
    try {
      return await whenNotLimited(() => this.client.getMedia(id));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * `POST /media` with `_id` (docs/api.md, "Media"), built here: the client's upload has no `_id`
   * option. The fields go first, then the file streamed from the spool; the length is known. It
   * goes through the client's transport, so the token is refreshed as for any request.
   */
  private async upload(record: Media, path: string, size: number): Promise<Media> {
    const boundary = `----VellumImport${randomBytes(16).toString('hex')}`;
    let head = field(boundary, '_id', record._id);
    if (record.alt !== null) head += field(boundary, 'alt', record.alt);
    if (record.title !== null) head += field(boundary, 'title', record.title);
    // eslint-disable-next-line no-control-regex -- a control character in the quoted filename could end the header early
    const name = record.originalFilename.replace(/["\\\u0000-\u001f\u007f]/g, '_');
    head +=
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"; ` +
      `filename*=UTF-8''${encodeURIComponent(record.originalFilename)}\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const preamble = Buffer.from(head);
    const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
    const headers = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(preamble.length + size + epilogue.length),
    };
    const { data } = await this.client.transport.json<{ data: Media }>({
      method: 'POST',
      path: '/media',
      // Built anew for each sending (the transport sends again once after a refreshed token).
      stream: async () => ({ body: pullStream([preamble], path, [epilogue]), headers }),
    });
    return data;
  }
}

/** The bytes of `before`, the file, `after`, read only as the request sends them. */
function pullStream(before: Buffer[], path: string, after: Buffer[]): ReadableStream<Uint8Array> {
  async function* parts() {
    yield* before;
    yield* createReadStream(path) as AsyncIterable<Buffer>;
    yield* after;
  }
  const it = parts();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await it.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function sameFile(present: Media, record: Media): MediaOutcome {
  return present.sha256 === record.sha256
    ? { status: 'skipped' }
    : { status: 'failed', error: `the id is taken on the target by another file (SHA-256 ${present.sha256.slice(0, 12)}…)` };
}

function field(boundary: string, name: string, value: string): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}
