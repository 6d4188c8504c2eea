import { resolve } from 'node:path';
import type { MediaConfig } from '../config/types.js';
import type { FileStore } from './storage/file-store.js';
import { openFileStore } from './storage/open-file-store.js';

/** The configured store: `media.dir` (relative to the working directory) or the S3 bucket. */
export function openMediaStore(media: MediaConfig): Promise<FileStore> {
  if (media.storage === 's3' && media.s3) return openFileStore({ storage: 's3', s3: media.s3 });
  return openFileStore({ storage: 'local', dir: resolve(media.dir) });
}
