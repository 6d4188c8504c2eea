import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, isSafeKey } from '../assert-safe-key.js';
import { MediaError } from '../media-error.js';
import type { ByteRange, FileStore, StoredObject } from './file-store.js';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Same refusal as S3's 416, so callers see one behaviour whichever adapter is configured. */
function assertSatisfiable(range: ByteRange, size: number): void {
  if (range.start < 0 || range.end < range.start || range.start >= size) {
    throw new MediaError('unsatisfiable-range', `unsatisfiable range ${range.start}-${range.end} of ${size} bytes`, { size });
  }
}

/** Media files as plain files, one per key, directly inside `dir`. */
export function createLocalFileStore(dir: string): FileStore {
  const root = resolve(dir);
  let created: Promise<unknown> | undefined;
  const ensureDir = () => (created ??= mkdir(root, { recursive: true }));

  const pathOf = (key: string): string => {
    assertSafeKey(key);
    const path = join(root, key);
    // assertSafeKey already rules this out; a second check costs nothing if that regex ever loosens.
    if (dirname(resolve(path)) !== root) {
      throw new MediaError('unsafe-key', `storage key escapes the media directory: ${JSON.stringify(key)}`);
    }
    return path;
  };

  return {
    kind: 'local',

    async put(key, body, _contentType) {
      const target = pathOf(key);
      await ensureDir();
      // Temp names start with `.`, which no key can, so they never shadow or show up as objects.
      const temp = join(root, `.tmp-${randomBytes(12).toString('hex')}`);
      try {
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        // `flush` fsyncs before close: without it a crash right after the rename could leave an empty file.
        await pipeline(source, createWriteStream(temp, { flags: 'wx', flush: true }));
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },

    async get(key, range?: ByteRange): Promise<StoredObject | undefined> {
      const path = pathOf(key);
      // Size and bytes come from one open file, so a concurrent replace can't mix two versions.
      let handle;
      try {
        handle = await open(path, 'r');
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) {
          await handle.close();
          return undefined;
        }
        if (range) assertSatisfiable(range, info.size);
        const body: Readable = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
        return { body, size: info.size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async stat(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        return info.isFile() ? { size: info.size } : undefined;
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async delete(keys) {
      const paths = keys.map(pathOf);
      for (const path of paths) {
        try {
          await rm(path);
        } catch (err) {
          if (!isMissing(err)) throw err;
        }
      }
    },

    async list() {
      try {
        const entries = await readdir(root, { withFileTypes: true });
        return entries.filter((e) => e.isFile() && isSafeKey(e.name)).map((e) => e.name);
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
    },

    async close() {},
  };
}
