import { errors } from '../../errors.js';
import type { Principal } from '../access/principal.js';
import { mayWatchPresence, requireMayListen } from '../access/policy.js';
import type { PresentUser } from '../presence/presence-message.js';
import type { Services } from '../services.js';
import type { ChangeEvent } from './change-event.js';
import { EventBacklog } from './event-backlog.js';
import { filterMatches, parseStreamFilter, PRESENCE_EVENT, type StreamFilter } from './stream-filter.js';
import type { Perspective } from '../documents/perspective.js';
import { renderEvent, resetMessage, streamMessage, type RenderedEvent, type StreamMessage } from './stream-message.js';

/** What the transport gives a stream: a way to send a message and to end the response. */
export interface StreamSink {
  send(message: StreamMessage): void;
  end(): void;
}

export interface OpenStreamInput {
  types?: string;
  events?: string;
  /** `published`: changes to published versions only; `drafts`: pending drafts too, read permission needed (docs/drafts.md). */
  perspective?: Perspective;
  lastEventId?: string;
  /** `type:id,…`: the documents whose presence the stream follows (docs/realtime.md, "Presence"). */
  presence?: string;
  /** Resolves the caller's credential again: throws once it is revoked, expired or its user deactivated. */
  reauthenticate(): Promise<Principal>;
}

/** One open stream: its caller (re-resolved as permissions change), its filter and its sink. */
export class EventStream {
  private rechecking: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly svc: Services,
    private actor: Principal,
    private readonly filter: StreamFilter,
    private readonly sink: StreamSink,
    private readonly input: OpenStreamInput,
    private readonly onClose: (stream: EventStream) => void,
  ) {}

  deliver(event: ChangeEvent, rendered?: RenderedEvent): void {
    if (this.closed) return;
    // A change to the caller's own user may change what it may read, or end its sessions.
    if (event.subject.kind === 'user' && event.subject.id === this.actor.id && this.actor.kind !== 'token') void this.recheck();
    if (!filterMatches(this.filter, event)) return;
    const message = streamMessage(this.svc, this.actor, event, rendered);
    if (message) this.sink.send(message);
  }

  /**
   * Who is at a document the stream follows, now. No `id:` line: presence is no change, it is not
   * kept in the backlog, and the client's last event id stays that of the last change.
   */
  deliverPresence(type: string, id: string, present: readonly PresentUser[]): void {
    if (this.closed || !this.filter.presence?.some((t) => t.type === type && t.id === id)) return;
    if (!mayWatchPresence(this.actor, type)) return;
    this.sink.send({ event: PRESENCE_EVENT, data: JSON.stringify({ type, id, present }) });
  }

  /** Resolves the caller again; a credential that no longer holds ends the stream. One check at a time. */
  recheck(): Promise<void> {
    this.rechecking ??= this.input
      .reauthenticate()
      .then(
        (actor) => void (this.actor = { ...actor, client: this.actor.client }),
        () => this.close(),
      )
      .finally(() => (this.rechecking = undefined));
    return this.rechecking;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.sink.end();
  }
}

/**
 * The node's open streams and its backlog (docs/realtime.md). Subscribes to the change bus once:
 * every event goes into the backlog, then to each stream, synchronously, so a stream opened
 * between two events replays and follows without a gap or a repeat.
 */
export class EventStreams {
  private readonly backlog: EventBacklog;
  private readonly streams = new Set<EventStream>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribePresence: () => void;

  constructor(private readonly svc: Services) {
    this.backlog = new EventBacklog(svc.config.realtime.backlog);
    this.unsubscribe = svc.events.subscribe((event) => {
      this.backlog.push(event);
      const rendered = renderEvent(event);
      for (const stream of this.streams) stream.deliver(event, rendered);
    });
    this.unsubscribePresence = svc.presence.onChange((type, id, present) => {
      for (const stream of this.streams) stream.deliverPresence(type, id, present);
    });
  }

  get open(): number {
    return this.streams.size;
  }

  /**
   * `GET /events`: checks the caller and the filters, then sends what a resuming caller missed
   * (or a reset) and registers the stream for what comes next.
   */
  openStream(actor: Principal, input: OpenStreamInput, sink: StreamSink): EventStream {
    // 1. Who may listen: signed-in callers; anonymous ones only while documents are public.
    requireMayListen(actor, this.svc.config.documents.publicRead);
    // 2. Filters (400 on unknown types or patterns) and the per-node limit.
    const filter = parseStreamFilter(this.svc, actor, input);
    if (this.streams.size >= this.svc.config.realtime.maxStreams)
      throw errors.atCapacity(5, 'Too many open event streams; try again shortly');
    // 3. Missed events, filtered as live ones are; an id no longer held gets a reset instead.
    const stream = new EventStream(this.svc, actor, filter, sink, input, (s) => this.streams.delete(s));
    if (input.lastEventId) {
      const missed = this.backlog.after(input.lastEventId);
      if (missed) for (const event of missed) stream.deliver(event);
      else sink.send(resetMessage(this.backlog.newestId));
    }
    // 4. Who is at the documents it follows now, then live from here.
    for (const { type, id } of filter.presence ?? []) stream.deliverPresence(type, id, this.svc.presence.list(type, id));
    this.streams.add(stream);
    return stream;
  }

  /** Every stream re-resolves its caller (the heartbeat's check). */
  recheckAll(): Promise<void> {
    return Promise.all([...this.streams].map((s) => s.recheck())).then(() => undefined);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    this.unsubscribe();
    this.unsubscribePresence();
    for (const stream of [...this.streams]) stream.close();
  }
}
