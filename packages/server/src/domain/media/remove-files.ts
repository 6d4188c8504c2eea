import type { Services } from '../services.js';

/**
 * Removes stored files after the commit that made them unused, and their copies in memory. A file
 * that cannot be removed is logged, never an error: an orphan file is harmless, a record without
 * its file is not.
 */
export async function removeFiles(svc: Services, keys: readonly string[], failure: string): Promise<void> {
  if (keys.length === 0) return;
  for (const key of keys) svc.smallFiles.delete(key);
  await svc.files.delete(keys).catch((err: unknown) => svc.log.error({ err, keys }, failure));
}
