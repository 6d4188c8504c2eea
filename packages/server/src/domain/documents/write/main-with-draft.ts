import { errors } from '../../../errors.js';
import { findDocument, type StoredDocument } from '../../../storage/documents/document-rows.js';
import { dropDraft, findDraft, type StoredDraft } from '../../../storage/documents/draft-rows.js';
import { mainVersion } from './main-version.js';
import type { WriteTarget } from './write-target.js';

/** The pending drafts read beside the main versions this target returned. */
const drafts = new WeakMap<StoredDocument, StoredDraft>();

/** The pending draft read with a main version by `mainWithDraft` (undefined: it has none). */
export const pendingDraftOf = (main: StoredDocument): StoredDraft | undefined => drafts.get(main);

/**
 * A document's main version read together with its pending draft, for the writes that apply the
 * draft to it: publish and unpublish (docs/drafts.md). The new main version replaces the old as
 * `mainVersion` writes it, and the draft, now applied, is dropped in the same transaction. Locking
 * path only: both rows are read under the lock.
 */
export const mainWithDraft: WriteTarget = {
  async read(conn, id, forUpdate) {
    const main = await findDocument(conn, id, { forUpdate });
    if (!main || main.status !== 'published') return main;
    const draft = await findDraft(conn, id, { forUpdate });
    if (draft) drafts.set(main, draft);
    return main;
  },

  mayAnnounce: (kind) => mainVersion.mayAnnounce(kind),

  events: (change) => mainVersion.events(change),

  writeGuarded() {
    throw new Error('publish and unpublish are written on the locking path only');
  },

  async write(conn, change, side, outbox) {
    if (!(await mainVersion.write(conn, change, side, outbox))) return false;
    if (change.kind === 'update' && pendingDraftOf(change.before)) await dropDraft(conn, change.doc.id);
    return true;
  },

  remove() {
    throw new Error('publish and unpublish never delete');
  },

  insertMany() {
    throw errors.invalidInput('A new document has no pending draft');
  },
};
