import { errors } from '../../errors.js';
import { isSafeKey } from '../../media/assert-safe-key.js';
import { findMedia } from '../../storage/media/media-store.js';
import { ID_PATTERN } from '../documents/validate-document.js';
import type { Services } from '../services.js';

/**
 * A media id chosen by the uploader (`_id`, docs/api.md "Media"): an import keeps the ids its
 * documents' image and file fields hold. The id names the stored files (`<id>.<ext>`,
 * `<id>-<variant>.<ext>`), so on top of the documents' rule it must make a safe storage key:
 * it starts with a letter or digit and holds no `..` (nor ends with `.`, which would make one).
 */
export function checkClientMediaId(value: string): string {
  if (!ID_PATTERN.test(value) || !isSafeKey(`${value}.x`)) {
    throw errors.validation([
      {
        field: '_id',
        message: 'must be 1–64 characters of A–Z, a–z, 0–9, ".", "_" or "-", starting with a letter or digit, without ".."',
      },
    ]);
  }
  return value;
}

/** Client ids being uploaded right now, per app: two uploads of one id must not write the same keys at once. */
const inFlight = new WeakMap<Services, Set<string>>();

/**
 * Reserves a client id for one upload, before any file is written (a refused upload stores
 * nothing and, above all, never overwrites or removes the files of the media that holds the id):
 * 1. no other upload of this id is running on this node;
 * 2. no media has the id;
 * 3. none of the keys the upload will write exists: an id such as `hero-thumb` would otherwise
 *    write over the `thumb` variant of media `hero`, or the other way round.
 * Returns the release to call once the upload is stored or failed. Several nodes are not
 * supported yet (docs/api.md, "Caching"); there a race of two uploads of one id is caught only
 * by the row's unique index.
 */
export async function reserveClientMediaId(svc: Services, id: string, keys: readonly string[]): Promise<() => void> {
  let ids = inFlight.get(svc);
  if (!ids) inFlight.set(svc, (ids = new Set()));
  if (ids.has(id)) throw taken(id);
  ids.add(id);
  const release = () => void ids.delete(id);
  try {
    if (await findMedia(svc.database, id)) throw taken(id);
    for (const key of keys) if (await svc.files.stat(key)) throw taken(id);
    return release;
  } catch (err) {
    release();
    throw err;
  }
}

export function taken(id: string) {
  return errors.conflict(`Media id ${id} is already taken`, [{ field: '_id', message: 'is taken' }]);
}
