import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileStore } from '../../packages/server/src/media/storage/file-store.js';
import { createLocalFileStore } from '../../packages/server/src/media/storage/local-file-store.js';
import { MediaError } from '../../packages/server/src/media/media-error.js';
import { openFileStore } from '../../packages/server/src/media/storage/open-file-store.js';
import { S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3Server } from '../helpers/s3-server.js';

const MiB = 1024 * 1024;

interface Fixture {
  store: FileStore;
  /** Everything physically present for this store (local: the directory; S3: every object under its prefix). */
  rawNames(): Promise<string[]>;
  /** Puts things next to the keys that are not keys (dot files, nested paths, objects outside the prefix). */
  addForeignEntries(): Promise<void>;
  dispose(): Promise<void>;
}

interface Harness {
  kind: 'local' | 's3';
  start(): Promise<void>;
  stop(): Promise<void>;
  fresh(): Promise<Fixture>;
}

const localHarness: Harness = {
  kind: 'local',
  async start() {},
  async stop() {},
  async fresh() {
    const parent = mkdtempSync(join(tmpdir(), 'vellum-files-'));
    // A directory that does not exist yet: the store creates it.
    const dir = join(parent, 'media');
    const store = createLocalFileStore(dir);
    return {
      store,
      rawNames: async () => {
        try {
          return readdirSync(dir).sort();
        } catch {
          return [];
        }
      },
      async addForeignEntries() {
        mkdirSync(join(dir, 'nested'), { recursive: true });
        writeFileSync(join(dir, '.hidden'), 'x');
      },
      async dispose() {
        await store.close();
        rmSync(parent, { recursive: true, force: true });
      },
    };
  },
};

function s3Harness(): Harness {
  let server: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let raw: S3Client | undefined;
  let fixtures = 0;
  const credentials = { accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY };
  return {
    kind: 's3',
    async start() {
      server = await startS3Server();
      raw = new S3Client({ region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials });
    },
    async stop() {
      raw?.destroy();
      await server?.close();
    },
    async fresh() {
      if (!server || !raw) throw new Error('the S3 server starts in beforeAll');
      const { endpoint, bucket } = server;
      const client = raw;
      // Each test gets its own prefix in the shared bucket, so it starts from an empty store.
      const prefix = `run-${++fixtures}/`;
      const store = await openFileStore({ storage: 's3', s3: { bucket, endpoint, forcePathStyle: true, ...credentials, prefix } });
      return {
        store,
        async rawNames() {
          const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
          return (res.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();
        },
        async addForeignEntries() {
          for (const Key of [`${prefix}nested/x.txt`, `run-${fixtures}-other.txt`, `elsewhere/y.txt`]) {
            await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'x' }));
          }
        },
        dispose: () => store.close(),
      };
    },
  };
}

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `totalBytes` random bytes in 64 KiB chunks, and the sha256 of what it produced. */
function generatedStream(totalBytes: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let left = totalBytes; left > 0;) {
      const chunk = randomBytes(Math.min(64 * 1024, left));
      hash.update(chunk);
      left -= chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), sha256: () => hash.digest('hex') };
}

/** A client upload that breaks off after `bytesBeforeFailure` bytes. */
function failingStream(bytesBeforeFailure: number): Readable {
  async function* chunks() {
    for (let left = bytesBeforeFailure; left > 0; left -= MiB) yield randomBytes(Math.min(MiB, left));
    throw new Error('client went away');
  }
  return Readable.from(chunks());
}

const UNSAFE_KEYS = ['../x', 'a/b', '/etc/passwd', '..', 'a\\b', 'x\u0000y', '.hidden', ''];

describe.each([localHarness, s3Harness()])('$kind file store', (harness) => {
  let fixture: Fixture;
  let store: FileStore;

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  beforeEach(async () => {
    fixture = await harness.fresh();
    store = fixture.store;
  });
  afterEach(() => fixture.dispose());

  it('stores a buffer and reads it back whole', async () => {
    const bytes = randomBytes(5000);
    await store.put('a1.bin', bytes, 'application/octet-stream');
    const got = await store.get('a1.bin');
    expect(got?.size).toBe(5000);
    expect((await bytesOf(got!.body)).equals(bytes)).toBe(true);
    expect(await store.stat('a1.bin')).toEqual({ size: 5000 });
  });

  it('streams a 20 MiB upload in and out unchanged', async () => {
    // Not a multiple of the 8 MiB S3 part size, so the multipart upload ends with a short part.
    const size = 20 * MiB + 12345;
    const { stream, sha256 } = generatedStream(size);
    await store.put('big.bin', stream, 'video/mp4');
    const expected = sha256();
    const got = await store.get('big.bin');
    expect(got?.size).toBe(size);
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of got!.body) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    expect(read).toBe(size);
    expect(hash.digest('hex')).toBe(expected);
    expect(await store.stat('big.bin')).toEqual({ size });
  });

  it('stores an empty object from a buffer and from a stream', async () => {
    await store.put('empty1.txt', Buffer.alloc(0), 'text/plain');
    await store.put('empty2.txt', Readable.from([]), 'text/plain');
    for (const key of ['empty1.txt', 'empty2.txt']) {
      const got = await store.get(key);
      expect(got?.size).toBe(0);
      expect((await bytesOf(got!.body)).length).toBe(0);
    }
  });

  it('reads inclusive byte ranges and reports the whole size', async () => {
    const bytes = randomBytes(1000);
    await store.put('r.bin', bytes, 'application/octet-stream');
    const ranges = [
      [0, 9],
      [400, 599],
      [999, 999],
      [0, 999],
      // s3rver answers bytes=0-0 with the whole object (real S3 does not), which the S3 adapter refuses.
      ...(harness.kind === 'local' ? [[0, 0]] : []),
    ];
    for (const [start, end] of ranges) {
      const got = await store.get('r.bin', { start, end });
      expect(got?.size).toBe(1000);
      expect((await bytesOf(got!.body)).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    // An end past the last byte is cut off at the end of the object, as HTTP ranges are.
    const tail = await store.get('r.bin', { start: 990, end: 5000 });
    expect((await bytesOf(tail!.body)).equals(bytes.subarray(990))).toBe(true);
  });

  it('refuses unsatisfiable ranges', async () => {
    await store.put('r.bin', randomBytes(100), 'application/octet-stream');
    await expect(store.get('r.bin', { start: 100, end: 150 })).rejects.toThrow(MediaError);
    await expect(store.get('r.bin', { start: 50, end: 10 })).rejects.toThrow(MediaError);
    await expect(store.get('r.bin', { start: 100, end: 150 })).rejects.toMatchObject({ reason: 'unsatisfiable-range', size: 100 });
    await expect(store.get('r.bin', { start: 50, end: 10 })).rejects.toMatchObject({ reason: 'unsatisfiable-range', size: 100 });
  });

  it('answers undefined for a missing key', async () => {
    expect(await store.get('missing.bin')).toBeUndefined();
    expect(await store.get('missing.bin', { start: 0, end: 10 })).toBeUndefined();
    expect(await store.stat('missing.bin')).toBeUndefined();
    await store.put('present.bin', Buffer.from('x'), 'text/plain');
    expect(await store.get('missing.bin')).toBeUndefined();
  });

  it('deletes objects and ignores missing ones', async () => {
    await store.put('d1.txt', Buffer.from('one'), 'text/plain');
    await store.put('d2.txt', Buffer.from('two'), 'text/plain');
    await store.delete(['d1.txt', 'never-there.txt']);
    expect(await store.list()).toEqual(['d2.txt']);
    expect(await store.get('d1.txt')).toBeUndefined();
    expect(await store.stat('d1.txt')).toBeUndefined();
    await store.delete([]);
    await store.delete(['d1.txt']);
    expect(await store.list()).toEqual(['d2.txt']);
  });

  it('lists exactly the stored keys', async () => {
    expect(await store.list()).toEqual([]);
    await store.put('l1.jpg', Buffer.from('1'), 'image/jpeg');
    await store.put('l2-thumb.webp', Readable.from([Buffer.from('2')]), 'image/webp');
    await store.put('l3_x.png', generatedStream(100_000).stream, 'image/png');
    await store.put('l1.jpg', Buffer.from('1 again'), 'image/jpeg');
    expect((await store.list()).sort()).toEqual(['l1.jpg', 'l2-thumb.webp', 'l3_x.png']);
    // Nothing else was left behind: no temp files, no stray objects.
    expect(await fixture.rawNames()).toEqual(['l1.jpg', 'l2-thumb.webp', 'l3_x.png']);
    await fixture.addForeignEntries();
    expect((await store.list()).sort()).toEqual(['l1.jpg', 'l2-thumb.webp', 'l3_x.png']);
  });

  it('refuses unsafe keys in every method before touching storage', async () => {
    await store.put('keep.txt', Buffer.from('keep'), 'text/plain');
    for (const key of UNSAFE_KEYS) {
      const refused = new RegExp('unsafe storage key');
      await expect(store.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(refused);
      await expect(store.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toMatchObject({ reason: 'unsafe-key' });
      await expect(store.put(key, Readable.from([Buffer.from('x')]), 'text/plain'), key).rejects.toThrow(refused);
      await expect(store.get(key), key).rejects.toThrow(refused);
      await expect(store.get(key, { start: 0, end: 1 }), key).rejects.toThrow(refused);
      await expect(store.stat(key), key).rejects.toThrow(refused);
      // One bad key refuses the whole batch, so the good one is still there.
      await expect(store.delete(['keep.txt', key]), key).rejects.toThrow(refused);
    }
    expect(await fixture.rawNames()).toEqual(['keep.txt']);
  });

  it('a failing upload stream rejects and leaves nothing behind', async () => {
    await expect(store.put('fail-small.bin', failingStream(100_000), 'video/mp4')).rejects.toThrow('client went away');
    // Past the first S3 part, so the S3 adapter has a multipart upload in progress when it fails.
    // s3rver implements neither AbortMultipartUpload nor ListMultipartUploads, so only the listing is checked.
    await expect(store.put('fail-big.bin', failingStream(10 * MiB), 'video/mp4')).rejects.toThrow('client went away');
    expect(await store.list()).toEqual([]);
    expect(await fixture.rawNames()).toEqual([]);
    expect(await store.get('fail-big.bin')).toBeUndefined();
  });

  it('a failing upload keeps the previous version of the key', async () => {
    await store.put('v.bin', Buffer.from('version one'), 'text/plain');
    await expect(store.put('v.bin', failingStream(10 * MiB), 'text/plain')).rejects.toThrow('client went away');
    expect((await bytesOf((await store.get('v.bin'))!.body)).toString()).toBe('version one');
    expect(await fixture.rawNames()).toEqual(['v.bin']);
  });

  it('an object appears only once its upload is complete', async () => {
    const upload = new PassThrough();
    const putting = store.put('slow.bin', upload, 'application/octet-stream');
    upload.write(Buffer.alloc(1000, 1));
    // The store has taken the first bytes (an incomplete object would be there now, if ever).
    await expect.poll(() => upload.readableLength).toBe(0);
    expect(await store.get('slow.bin')).toBeUndefined();
    expect(await store.stat('slow.bin')).toBeUndefined();
    expect(await store.list()).toEqual([]);
    upload.end(Buffer.alloc(1000, 2));
    await putting;
    const got = await store.get('slow.bin');
    expect(got?.size).toBe(2000);
    expect((await bytesOf(got!.body)).equals(Buffer.concat([Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)]))).toBe(true);
  });
});
