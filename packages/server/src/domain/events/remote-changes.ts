import type { Principal } from '../access/principal.js';
import { getDocument } from '../documents/read-documents.js';
import { MEDIA_CHANGES } from '../media/update-media.js';
import { getMedia } from '../media/read-media.js';
import type { Services } from '../services.js';
import { getUser } from '../users/list-users.js';
import type { ChangeEvent } from './change-event.js';

/** Who reads a resource for an event that came without its data: the event's data is the admin view. */
const EVENT_READER: Principal = Object.freeze({ kind: 'user', id: null, role: 'admin', permissions: new Set<string>() });

/**
 * The data of an event too large for the channel: the resource as an admin reads it now (it may
 * be newer than the event). A deleted resource cannot be read; its subject is all there is.
 */
export async function readEventData(svc: Services, event: ChangeEvent): Promise<Record<string, unknown>> {
  const s = event.subject;
  if (event.type.endsWith('.deleted')) return subjectOnly(event);
  try {
    if (s.kind === 'document') return await getDocument(svc, EVENT_READER, { type: s.docType, id: s.id, mode: 'collections' });
    if (s.kind === 'media') return (await getMedia(svc, EVENT_READER, s.id)) as unknown as Record<string, unknown>;
    return (await getUser(svc, EVENT_READER, s.id)) as unknown as Record<string, unknown>;
  } catch {
    // Deleted since, or the database cannot answer: the subject is still worth passing on.
    return subjectOnly(event);
  }
}

/** What the subject alone says of the resource. */
function subjectOnly({ subject: s }: ChangeEvent): Record<string, unknown> {
  return s.kind === 'document' ? { _id: s.id, _type: s.docType, _rev: s.rev, _status: s.status } : { id: s.id };
}

/**
 * A change committed on another node: the caches this node keeps of that content are out of
 * date (docs/architecture.md, "Caches"). Document and media versions are bumped as a local write
 * bumps them.
 */
export function applyRemoteChange(svc: Services, event: ChangeEvent): void {
  if (event.subject.kind === 'document') {
    if (event.type.startsWith('document.draft.')) svc.changes.bumpDraft(event.subject.docType);
    else svc.changes.bump(event.subject.docType);
  } else if (event.subject.kind === 'media') svc.changes.bump(MEDIA_CHANGES);
}
