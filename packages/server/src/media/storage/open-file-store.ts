import type { FileStore } from './file-store.js';
import { createLocalFileStore } from './local-file-store.js';
import { createS3FileStore, type S3FileStoreOptions } from './s3-file-store.js';

export type MediaStorageConfig = { storage: 'local'; dir: string } | { storage: 's3'; s3: S3FileStoreOptions };

export function openFileStore(config: MediaStorageConfig): FileStore {
  switch (config.storage) {
    case 'local':
      return createLocalFileStore(config.dir);
    case 's3':
      return createS3FileStore(config.s3);
  }
}
