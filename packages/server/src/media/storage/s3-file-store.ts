import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { assertSafeKey, isSafeKey } from '../assert-safe-key.js';
import { MediaError } from '../media-error.js';
import type { ByteRange, FileStore, StoredObject } from './file-store.js';

export interface S3FileStoreOptions {
  bucket: string;
  region?: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, e.g. `media/`, to share a bucket with other data. */
  prefix?: string;
}

/** Well above S3's 5 MiB minimum part size; one part is the most a put holds in memory. */
const PART_SIZE = 8 * 1024 * 1024;
/** DeleteObjects accepts at most this many keys per request. */
const DELETE_BATCH = 1000;

function errorName(err: unknown): string | undefined {
  return (err as { name?: string }).name;
}

function isMissing(err: unknown): boolean {
  const name = errorName(err);
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  // Some S3-compatible servers answer a bare 404; a missing bucket is a misconfiguration, not a missing key.
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404 && name !== 'NoSuchBucket';
}

interface Piece {
  data: Buffer;
  /** True for the final piece; an upload whose first piece is final fits in a single PutObject. */
  last: boolean;
}

/**
 * Cuts the stream into PART_SIZE pieces, holding at most one piece plus one chunk. A full piece goes
 * out only once a byte beyond it has arrived, so whether more follows is known without a second piece.
 */
async function* pieces(body: Readable): AsyncGenerator<Piece, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    pending.push(buf);
    pendingBytes += buf.length;
    while (pendingBytes > PART_SIZE) {
      const joined = Buffer.concat(pending, pendingBytes);
      yield { data: joined.subarray(0, PART_SIZE), last: false };
      pending = [joined.subarray(PART_SIZE)];
      pendingBytes -= PART_SIZE;
    }
  }
  yield { data: Buffer.concat(pending, pendingBytes), last: true };
}

/** Whole-object size from `Content-Range: bytes a-b/SIZE`, after checking a-b is what was asked for. */
function sizeFromContentRange(contentRange: string | undefined, range: ByteRange): number {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? '');
  if (!match) throw new MediaError('storage-failed', `unexpected Content-Range from S3: ${JSON.stringify(contentRange)}`);
  const [first, last, size] = match.slice(1).map(Number);
  // Some S3 look-alikes serve other bytes than requested (s3rver answers bytes=0-0 with the whole object).
  if (first !== range.start || last !== Math.min(range.end, size - 1)) {
    throw new MediaError('storage-failed', `S3 answered range ${range.start}-${range.end} with ${contentRange}`);
  }
  return size;
}

export function createS3FileStore(opts: S3FileStoreOptions): FileStore {
  if (Boolean(opts.accessKeyId) !== Boolean(opts.secretAccessKey)) {
    throw new MediaError(
      'misconfigured',
      'S3 media storage needs both accessKeyId and secretAccessKey, or neither (SDK default credentials)',
    );
  }
  const client = new S3Client({
    region: opts.region ?? 'us-east-1',
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials:
      opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
  });
  const Bucket = opts.bucket;
  const prefix = opts.prefix ?? '';
  const objectKey = (key: string): string => {
    assertSafeKey(key);
    return prefix + key;
  };

  async function putStream(Key: string, body: Readable, ContentType: string): Promise<void> {
    const source = pieces(body);
    try {
      const first = await source.next();
      if (first.done) throw new Error('unreachable: pieces() always yields a last piece');
      // A stream that fits in one part is a plain PutObject: one request, and no upload left to abort.
      if (first.value.last) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: first.value.data, ContentType }));
        return;
      }
      await multipartUpload(Key, first.value.data, source, ContentType);
    } finally {
      // Ends the generator if an upload failed midway, which destroys the source stream.
      await source.return(undefined);
    }
  }

  async function sizeOf(Key: string): Promise<number | undefined> {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return Number(res.ContentLength);
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /** The refusal of a range, with the object's size when it can be found (the 416 answer names it). */
  async function unsatisfiable(Key: string, range: ByteRange): Promise<MediaError> {
    const size = await sizeOf(Key).catch(() => undefined);
    return new MediaError('unsatisfiable-range', `unsatisfiable range ${range.start}-${range.end}`, { size });
  }

  async function multipartUpload(Key: string, firstPart: Buffer, rest: AsyncIterable<Piece>, ContentType: string): Promise<void> {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }));
    if (!UploadId) throw new MediaError('storage-failed', 'S3 returned no UploadId');
    try {
      const completed: CompletedPart[] = [];
      const upload = async (Body: Buffer) => {
        const PartNumber = completed.length + 1;
        const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }));
        completed.push({ PartNumber, ETag });
      };
      await upload(firstPart);
      for await (const piece of rest) await upload(piece.data);
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: completed } }));
    } catch (err) {
      // Best effort: the original failure matters more, and a bucket lifecycle rule can reap leftovers.
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  return {
    kind: 's3',

    async put(key, body, contentType) {
      const Key = objectKey(key);
      if (Buffer.isBuffer(body)) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentType: contentType }));
      } else {
        await putStream(Key, body, contentType);
      }
    },

    async get(key, range?: ByteRange): Promise<StoredObject | undefined> {
      const Key = objectKey(key);
      // S3 ignores a malformed Range header and sends the whole object, so refuse it here.
      if (range && (range.start < 0 || range.end < range.start)) throw await unsatisfiable(Key, range);
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!res.Body) throw new MediaError('storage-failed', `S3 returned no body for ${Key}`);
        const body = res.Body as Readable;
        try {
          return { body, size: range ? sizeFromContentRange(res.ContentRange, range) : Number(res.ContentLength) };
        } catch (err) {
          body.destroy();
          throw err;
        }
      } catch (err) {
        if (isMissing(err)) return undefined;
        if (range && errorName(err) === 'InvalidRange') throw await unsatisfiable(Key, range);
        throw err;
      }
    },

    async stat(key) {
      const size = await sizeOf(objectKey(key));
      return size === undefined ? undefined : { size };
    },

    async delete(keys) {
      const objectKeys = keys.map(objectKey);
      for (let i = 0; i < objectKeys.length; i += DELETE_BATCH) {
        const Objects = objectKeys.slice(i, i + DELETE_BATCH).map((Key) => ({ Key }));
        const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
        // DeleteObjects answers 200 even when single keys fail; a missing key is not among the failures.
        const failed = res.Errors ?? [];
        if (failed.length > 0) {
          throw new MediaError('storage-failed', `S3 could not delete ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
        }
      }
    },

    async list() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }));
        for (const { Key } of res.Contents ?? []) {
          const key = Key?.slice(prefix.length);
          // Objects someone else put under the prefix (nested paths and the like) are not ours to report.
          if (key !== undefined && isSafeKey(key)) keys.push(key);
        }
        ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },

    async close() {
      client.destroy();
    },
  };
}
