import { errors } from '../../../errors.js';
import type { Conn } from '../../../storage/connection.js';
import { findDocument, type StoredDocument } from '../../../storage/documents/document-rows.js';
import { deleteDraft, findDraft, lastDraftRev, writeDraft } from '../../../storage/documents/draft-rows.js';
import { insertOutbox } from '../../../storage/webhooks/webhook-outbox.js';
import type { ChangeEvent } from '../../events/change-event.js';
import { changeEvent } from '../../events/record-changes.js';
import type { WebhookEvent } from '../../webhooks/webhook-events.js';
import { toDraftView } from '../document-view.js';
import { UPDATE_EVENTS } from './document-events.js';
import { mainVersion } from './main-version.js';
import type { WriteTarget } from './write-target.js';

/** What a read of the pending-draft target found beside the version it returned. */
export interface DraftState {
  /** A draft is stored (false: the first draft write makes it from the main version). */
  stored: boolean;
  /** The main version's `_rev` the draft is (or will be) based on. */
  baseRev: number;
}

/** The draft views this target returned, with their state: keyed by the object, which the decision carries on as `before`. */
const states = new WeakMap<StoredDocument, DraftState>();

/** The draft state of a version the target read; undefined for a main version (a document not published). */
export const draftState = (version: StoredDocument): DraftState | undefined => states.get(version);

const DRAFT_EVENTS: readonly WebhookEvent[] = ['document.draft.updated', 'document.draft.deleted'];

/**
 * A published document's pending draft (docs/drafts.md): the write pipeline's second target.
 * A document whose main version is not published has no pending draft (its main version is a
 * draft already), so there this target is the main version: `read` returns it as stored and every
 * other step hands it to `mainVersion`. Draft writes take the locking path only (no guarded
 * one-statement form): their unique values and slugs are checked when the draft is published.
 */
export const pendingDraft: WriteTarget = {
  async read(conn, id, forUpdate) {
    const main = await findDocument(conn, id, { forUpdate });
    if (!main || main.status !== 'published') return main;
    const draft = await findDraft(conn, id, { forUpdate });
    const view: StoredDocument = draft
      ? { ...main, rev: draft.rev, updatedAt: draft.updatedAt, updatedBy: draft.updatedBy, data: draft.data }
      : { ...main, rev: await lastDraftRev(conn, id) };
    states.set(view, { stored: draft !== undefined, baseRev: draft?.baseRev ?? main.rev });
    return view;
  },

  mayAnnounce: (kind) => (kind === 'delete' ? DRAFT_EVENTS : [...UPDATE_EVENTS, ...DRAFT_EVENTS]),

  events(change) {
    if (change.kind === 'insert') return mainVersion.events(change);
    if (!draftState(change.before)) return mainVersion.events(change);
    return change.kind === 'delete'
      ? [draftEvent('document.draft.deleted', change.before, change.at)]
      : [draftEvent('document.draft.updated', change.doc, change.doc.updatedAt)];
  },

  checksUnique: (change) => change.kind === 'insert' || !draftState(change.before),

  changesMain: (change) => change.kind === 'insert' || !draftState(change.before),

  writeGuarded() {
    throw new Error('a pending draft is written on the locking path only');
  },

  async write(conn, change, side, outbox) {
    const state = change.kind === 'update' ? draftState(change.before) : undefined;
    if (change.kind === 'insert' || !state) return mainVersion.write(conn, change, side, outbox);
    const { doc } = change;
    const draft = {
      id: doc.id,
      type: doc.type,
      rev: doc.rev,
      baseRev: state.baseRev,
      updatedAt: doc.updatedAt,
      updatedBy: doc.updatedBy,
      data: doc.data,
    };
    if (!(await writeDraft(conn, draft, state.stored ? change.before.rev : undefined, side))) return false;
    await insertOutbox(conn, outbox);
    return true;
  },

  /** Discards the pending draft: the document itself stays. */
  async remove(conn, change, outbox) {
    if (!draftState(change.before)?.stored) return false;
    const removed = await deleteDraft(conn, change.before.id, change.before.rev);
    if (removed) await insertOutbox(conn, outbox);
    return removed;
  },

  insertMany() {
    throw errors.invalidInput('A new document has no pending draft');
  },
};

function draftEvent(type: WebhookEvent, doc: StoredDocument, at: string): ChangeEvent {
  const subject = { kind: 'document' as const, docType: doc.type, id: doc.id, rev: doc.rev, status: doc.status };
  return changeEvent(type, subject, toDraftView(doc), at);
}

/** The pending draft of a published document as served (`_version: 'draft'`), or undefined when it has none. */
export async function readPendingDraft(conn: Conn, id: string): Promise<StoredDocument | undefined> {
  const view = await pendingDraft.read(conn, id, false);
  return view && draftState(view)?.stored ? view : undefined;
}
