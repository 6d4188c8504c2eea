import { changeVisibility } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import type { ChangeEvent } from './change-event.js';

/** One server-sent event: `id`, `event` and the JSON `data` line (docs/realtime.md, "Messages"). */
export interface StreamMessage {
  id?: string;
  event: string;
  data: string;
}

const DATA_KEY = { document: 'document', media: 'media', user: 'user' } as const;

/** The two messages an event can become, each rendered once however many streams send it. */
export type RenderedEvent = (visibility: 'full' | 'subject') => StreamMessage;

export function renderEvent(event: ChangeEvent): RenderedEvent {
  const cache: Partial<Record<'full' | 'subject', StreamMessage>> = {};
  return (visibility) => {
    let message = cache[visibility];
    if (!message) {
      const body: Record<string, unknown> = { id: event.id, type: event.type, timestamp: event.timestamp, subject: event.subject };
      if (visibility === 'full') body[DATA_KEY[event.subject.kind]] = event.data;
      message = cache[visibility] = { id: event.id, event: event.type, data: JSON.stringify(body) };
    }
    return message;
  };
}

/**
 * The message a caller gets for an event, or undefined when it may not know of the change at
 * all. The resource's data rides along only when the caller may read it.
 */
export function streamMessage(
  svc: Services,
  actor: Principal,
  event: ChangeEvent,
  rendered: RenderedEvent = renderEvent(event),
): StreamMessage | undefined {
  const subject = event.subject;
  const schema = subject.kind === 'document' ? svc.schemas.get(subject.docType) : undefined;
  const visibility = changeVisibility(actor, event, {
    schema,
    publicRead: svc.config.documents.publicRead,
    mediaPublicRead: svc.config.media.publicRead,
  });
  return visibility === 'none' ? undefined : rendered(visibility);
}

/** Tells a resuming client that events it missed are gone: reload, then follow the stream. */
export function resetMessage(newestId: string | undefined): StreamMessage {
  // An empty id clears the client's last id: with nothing held, its next reconnect starts live.
  return {
    id: newestId ?? '',
    event: 'reset',
    data: JSON.stringify({ reason: 'The events since Last-Event-ID are no longer held; reload your data' }),
  };
}
