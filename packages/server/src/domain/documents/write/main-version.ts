import { bulkInsertDocuments } from '../../../storage/documents/bulk-insert-documents.js';
import { updateDocumentChecked, insertDocumentChecked, updateDocumentLocked } from '../../../storage/documents/guarded-writes.js';
import { findDocument } from '../../../storage/documents/document-rows.js';
import { deleteDocument, insertDocument } from '../../../storage/documents/document-writes.js';
import { insertOutbox } from '../../../storage/webhooks/webhook-outbox.js';
import { CREATE_EVENTS, DELETE_EVENTS, UPDATE_EVENTS, createdEvents, deletedEvent, updatedEvent } from './document-events.js';
import type { WriteTarget } from './write-target.js';

/** A document's main version: the row `/documents` serves (its `_status` says whether it is live). */
export const mainVersion: WriteTarget = {
  read: (conn, id, forUpdate) => findDocument(conn, id, { forUpdate }),

  mayAnnounce: (kind) => (kind === 'insert' ? CREATE_EVENTS : kind === 'update' ? UPDATE_EVENTS : DELETE_EVENTS),

  events(change) {
    switch (change.kind) {
      case 'insert':
        return createdEvents(change.doc);
      case 'update':
        return [updatedEvent(change.before, change.doc)];
      case 'delete':
        return [deletedEvent(change.before, change.at)];
    }
  },

  writeGuarded: (database, change, side, guards, outbox, takeNotice) =>
    change.kind === 'insert'
      ? insertDocumentChecked(database, change.doc, side, guards, outbox, takeNotice)
      : updateDocumentChecked(database, change.doc, change.before.rev, side, guards, outbox, takeNotice),

  async write(conn, change, side, outbox) {
    if (change.kind === 'update') return updateDocumentLocked(conn, change.doc, change.before.rev, side, outbox);
    await insertDocument(conn, change.doc, side);
    await insertOutbox(conn, outbox);
    return true;
  },

  async remove(conn, change, outbox) {
    const removed = await deleteDocument(conn, change.before.id);
    if (removed) await insertOutbox(conn, outbox);
    return removed;
  },

  insertMany: (conn, batch) => bulkInsertDocuments(conn, batch),
};
