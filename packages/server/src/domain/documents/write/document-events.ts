import type { StoredDocument } from '../../../storage/documents/document-rows.js';
import type { ChangeEvent } from '../../events/change-event.js';
import { changeEvent } from '../../events/record-changes.js';
import type { WebhookEvent } from '../../webhooks/webhook-events.js';
import { toApiDocument } from '../document-view.js';

/** What a create may announce. */
export const CREATE_EVENTS: readonly WebhookEvent[] = ['document.created', 'document.published'];
/** What an update may announce: one of these, by the status it leaves (docs/webhooks.md, "Events"). */
export const UPDATE_EVENTS: readonly WebhookEvent[] = ['document.updated', 'document.published', 'document.unpublished'];
/** What a delete announces. */
export const DELETE_EVENTS: readonly WebhookEvent[] = ['document.deleted'];

/** A create announces `document.created`, and `document.published` too when it is created published. */
export function createdEvents(doc: StoredDocument): ChangeEvent[] {
  const created = documentEvent('document.created', doc, doc.createdAt);
  return doc.status === 'published' ? [created, documentEvent('document.published', doc, doc.createdAt)] : [created];
}

/**
 * An update announces one event: `document.published` when it makes the document published,
 * `document.unpublished` when it takes it out of `published`, `document.updated` otherwise.
 */
export function updatedEvent(before: StoredDocument, after: StoredDocument): ChangeEvent {
  const was = before.status === 'published';
  const is = after.status === 'published';
  const type: WebhookEvent = !was && is ? 'document.published' : was && !is ? 'document.unpublished' : 'document.updated';
  return documentEvent(type, after, after.updatedAt);
}

/** A delete announces the document as it was. */
export function deletedEvent(doc: StoredDocument, at: string): ChangeEvent {
  return documentEvent('document.deleted', doc, at);
}

function documentEvent(type: WebhookEvent, doc: StoredDocument, at: string): ChangeEvent {
  const subject = { kind: 'document' as const, docType: doc.type, id: doc.id, rev: doc.rev, status: doc.status };
  return changeEvent(type, subject, toApiDocument(doc), at);
}
