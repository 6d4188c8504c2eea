import { errors } from '../../errors.js';
import { isSafeKey } from '../../media/assert-safe-key.js';
import { isActiveContent } from '../../media/sniff-mime.js';
import type { ByteRange, StoredObject } from '../../media/storage/file-store.js';
import { requireMediaRead } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { mapMediaFailure } from './media-failure.js';
import { mimeForExtension } from './mime-for-extension.js';

/** Routes name byte ranges through the domain: http/ does not import media/ (docs/architecture.md). */
export type { ByteRange };

export interface MediaFile {
  contentType: string;
  /** Served as an attachment under a sandbox CSP: never rendered as a page of this origin. */
  active: boolean;
  /** Stored files never change (new content gets a new key), so the key is a strong validator. */
  etag: string;
  open(range?: ByteRange): Promise<StoredObject | undefined>;
  stat(): Promise<{ size: number } | undefined>;
  /** The whole file from memory when it is small (thumbnails); undefined when it is large or missing. */
  small(): Promise<Buffer | undefined>;
}

/** Files up to this size are kept in memory after their first read: thumbnails, placeholders, icons. */
export const SMALL_FILE_BYTES = 32 * 1024;

/**
 * A stored file by key. Anything that is not a key the service could have generated is simply
 * not found: traversal attempts never reach the store. The type comes from the extension, which
 * the service chose from the sniffed bytes at upload.
 */
export function mediaFile(svc: Services, actor: Principal, key: string): MediaFile {
  requireMediaRead(actor, svc.config.media.publicRead);
  if (!isSafeKey(key)) throw errors.notFound('File not found');
  const contentType = mimeForExtension(key.slice(key.lastIndexOf('.') + 1));
  return {
    contentType,
    active: isActiveContent(contentType.split(';')[0]),
    etag: `"${key}"`,
    open: (range) => mapMediaFailure(svc.files.get(key, range)),
    stat: () => mapMediaFailure(svc.files.stat(key)),
    small: () => mapMediaFailure(smallFile(svc, key)),
  };
}

/**
 * Keys never change content, so a small file read once can be served from memory: no file-system
 * or bucket round trip per request. Deleting media evicts its keys here; other nodes drop theirs
 * within the cache's TTL (a minute).
 */
async function smallFile(svc: Services, key: string): Promise<Buffer | undefined> {
  const cached = svc.smallFiles.get(key);
  if (cached) return cached;
  const stat = await svc.files.stat(key);
  if (!stat || stat.size > SMALL_FILE_BYTES) return undefined;
  const object = await svc.files.get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  svc.smallFiles.set(key, bytes);
  return bytes;
}
