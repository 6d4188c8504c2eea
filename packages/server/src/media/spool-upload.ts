import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaError } from './media-error.js';

export interface SpooledUpload {
  path: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

export const SPOOL_DIR = join(tmpdir(), 'vellum-uploads');

/**
 * Streams an upload to a temp file, hashing and counting on the way, so a file is never whole in
 * memory. Past `maxBytes` the copy stops at once (`file-too-large`) and the partial file is removed.
 * Type sniffing and image processing then read the file; the caller removes it when done.
 */
export async function spoolUpload(source: Readable, maxBytes: number): Promise<SpooledUpload> {
  await mkdir(SPOOL_DIR, { recursive: true });
  const path = join(SPOOL_DIR, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(tooLarge(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await rm(path, { force: true });
    // The multipart parser's own limit (set just above ours) ends the stream the same way.
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    // Disk errors (ENOSPC, EACCES…) are ours: they carry the failed syscall. Anything else broke
    // the incoming stream: a malformed multipart body or a client that went away.
    if ((err as { syscall?: string }).syscall !== undefined || err instanceof MediaError) throw err;
    throw new MediaError('malformed-upload', 'the upload ended early or is not well-formed multipart', {}, { cause: err });
  }
  return { path, size, sha256: hash.digest('hex') };
}

const tooLarge = (maxBytes: number) =>
  new MediaError('file-too-large', `the file is larger than the limit of ${maxBytes} bytes`, { maxBytes });

/**
 * Removes spool files a crashed process left behind. Only old ones: the directory is shared by
 * every Vellum process on the machine, and a file younger than `maxAgeMs` may be an upload in
 * progress elsewhere. Returns how many were removed.
 */
export async function sweepSpool(maxAgeMs = 3_600_000, dir = SPOOL_DIR, now = Date.now()): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}
