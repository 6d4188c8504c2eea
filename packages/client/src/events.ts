import type { Document } from './document-types.js';
import { apiErrorFrom } from './errors.js';
import type { Media } from './media.js';
import type { PresenceUpdate } from './presence.js';
import { SseParser, type SseMessage } from './sse-parser.js';
import type { Transport } from './transport.js';
import type { User } from './users.js';

/** The change events of the stream (docs/realtime.md, "Messages"), the webhook events' names. */
export type ChangeEventType =
  | 'document.created'
  | 'document.updated'
  | 'document.deleted'
  | 'document.published'
  | 'document.unpublished'
  | 'media.created'
  | 'media.updated'
  | 'media.deleted'
  | 'user.created'
  | 'user.updated'
  | 'user.deleted';

export type ChangeSubject =
  | { kind: 'document'; docType: string; id: string; rev: number; status: string }
  | { kind: 'media'; id: string }
  | { kind: 'user'; id: string };

/**
 * One change as the stream sends it. `document`, `media` or `user` holds the resource (a deleted
 * one as it was) only when the caller may read it; the subject always says what changed.
 */
export interface ChangeEvent {
  id: string;
  type: ChangeEventType;
  timestamp: string;
  subject: ChangeSubject;
  document?: Document;
  media?: Media;
  user?: User;
}

export interface SubscribeFilter {
  /** Document types; left out: every type the caller may read. */
  types?: string[];
  /** Event names or patterns (`document.*`, `media.created`, `*`); left out: all. `['presence.updated']` alone: presence only. */
  events?: string[];
  /** `type:id` of documents whose presence to follow (`onPresence`); signed in, with read permission on the types. */
  presence?: string[];
  /** Resume after this event (the `id` of the last one handled). */
  lastEventId?: string;
}

export interface SubscribeOptions {
  /** The events since `lastEventId` are gone from the server: reload what you show, then keep following. */
  onReset?: () => void;
  /** Who is at a document `presence` names: at once, and on every change (docs/realtime.md, "Presence"). */
  onPresence?: (update: PresenceUpdate) => void;
  /** The stream is open (again). */
  onOpen?: () => void;
  /**
   * A failure. Connection failures and 5xx answers are followed by a reconnect; a refusal (400,
   * 401 after the refresh, 403, 404) ends the subscription, reported here.
   */
  onError?: (err: unknown, willRetry: boolean) => void;
  signal?: AbortSignal;
}

export interface Subscription {
  /** The id of the last event received: where a new subscription would resume. */
  readonly lastEventId: string | undefined;
  close(): void;
}

const DEFAULT_RETRY_MS = 2000;

/**
 * `GET /events` through fetch and a streaming parser, since EventSource cannot send a bearer
 * token. Reconnects with the last event id after the server's `retry` delay; a 401 refreshes the
 * token once through the transport, as every request does.
 */
export class EventsApi {
  constructor(private readonly t: Transport) {}

  subscribe(filter: SubscribeFilter, onEvent: (event: ChangeEvent) => void, opts: SubscribeOptions = {}): Subscription {
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let lastEventId = filter.lastEventId;
    let retryMs = DEFAULT_RETRY_MS;
    const deliver = (m: SseMessage) => {
      lastEventId = m.lastEventId || undefined;
      if (m.event === 'reset') opts.onReset?.();
      else if (m.event === 'presence.updated') opts.onPresence?.(JSON.parse(m.data) as PresenceUpdate);
      else if (m.event !== 'message') onEvent(JSON.parse(m.data) as ChangeEvent);
    };
    const run = async () => {
      while (!abort.signal.aborted) {
        try {
          const res = await this.t.send({
            method: 'GET',
            path: '/events',
            query: { types: filter.types?.join(','), events: filter.events?.join(','), presence: filter.presence?.join(',') },
            headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
            signal: abort.signal,
          });
          if (!res.ok) {
            const err = apiErrorFrom(res, await res.text());
            const retry = res.status >= 500 || res.status === 429;
            opts.onError?.(err, retry);
            if (!retry) return;
          } else {
            opts.onOpen?.();
            const parser = new SseParser(deliver, (ms) => (retryMs = ms));
            // The parser starts from the id this connection resumed from: a stream with no events yet keeps it.
            if (lastEventId) parser.push(`id: ${lastEventId}\n`);
            await readText(res, (text) => parser.push(text));
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          opts.onError?.(err, true);
        }
        await this.t.sleep(retryMs, abort.signal).catch(() => undefined);
      }
    };
    void run().finally(() => opts.signal?.removeEventListener('abort', onAbort));
    return {
      get lastEventId() {
        return lastEventId;
      },
      close: () => abort.abort(),
    };
  }
}

async function readText(res: Response, onText: (text: string) => void): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onText(decoder.decode(value, { stream: true }));
  }
  onText(decoder.decode());
}
