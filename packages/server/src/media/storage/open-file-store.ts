import { resolve } from 'node:path';
import type { MediaConfig } from '../../config/types.js';
import type { FileStore } from './file-store.js';
import { createLocalFileStore } from './local-file-store.js';
import type { S3FileStoreOptions } from './s3-file-store.js';

export type MediaStorageConfig = { storage: 'local'; dir: string } | { storage: 's3'; s3: S3FileStoreOptions };

/** The store the `media` section configures: the S3 bucket, or `media.dir` (relative to the working directory). */
export function mediaStorage(media: Pick<MediaConfig, 'storage' | 'dir' | 's3'>): MediaStorageConfig {
  if (media.storage === 's3' && media.s3) return { storage: 's3', s3: media.s3 };
  return { storage: 'local', dir: resolve(media.dir) };
}

/** The AWS SDK is loaded only by instances that use S3: about 10 MB of memory the others keep. */
export async function openFileStore(config: MediaStorageConfig): Promise<FileStore> {
  switch (config.storage) {
    case 'local':
      return createLocalFileStore(config.dir);
    case 's3': {
      const { createS3FileStore } = await import('./s3-file-store.js');
      return createS3FileStore(config.s3);
    }
  }
}
