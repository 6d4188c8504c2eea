import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { UploadSource } from './media.js';

/** A file on disk as an upload source (Node only: reached through `@vellum/client/node`). */
export async function fileUploadSource(path: string): Promise<UploadSource> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path} is not a file`);
  const size = info.size;
  return {
    name: path.split(/[\\/]/).pop() || 'upload',
    size,
    async open() {
      if (size === 0) return { next: async () => undefined, close: async () => undefined };
      // `end` caps the read at the size announced in Content-Length should the file grow meanwhile.
      const stream = createReadStream(path, { start: 0, end: size - 1 });
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      return {
        next: async () => {
          const r = await chunks.next();
          return r.done ? undefined : r.value;
        },
        close: async () => {
          stream.destroy();
        },
      };
    },
  };
}
