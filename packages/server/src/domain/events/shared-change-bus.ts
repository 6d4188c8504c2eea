import { randomUUID } from 'node:crypto';
import { ChannelUnavailableError, type MessageChannel, type Notice } from '../../storage/pubsub/message-channel.js';
import type { ChangeBus } from './change-bus.js';
import type { ChangeEvent } from './change-event.js';
import type { PresenceMessage } from '../presence/presence-message.js';

/** What travels on the channel: the sending node and either events, "the webhooks changed" or a presence message. */
interface Envelope {
  node: string;
  events?: ChangeEvent[];
  webhooks?: true;
  presence?: PresenceMessage;
}

export interface SharedBusHooks {
  /** The data of an event sent without it (too large for the channel): the resource as an admin reads it now. */
  fill(event: ChangeEvent): Promise<Record<string, unknown>>;
  /** An event written on another node: this node's caches learn of it. */
  remote(event: ChangeEvent): void;
  warn(message: string, err?: unknown): void;
}

/**
 * The change bus of several nodes (docs/realtime.md, "Several nodes"). `publish` only sends; every
 * node, the publisher included, delivers to its subscribers what it receives from the channel,
 * so all nodes see one order. Events are batched per publish call while they fit one message;
 * one that does not fit alone goes without `data`, and receivers read the resource instead.
 */
export class SharedChangeBus implements ChangeBus {
  readonly crossesNodes = true;
  private readonly node = randomUUID();
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly webhookListeners = new Set<() => void>();
  private readonly presenceListeners = new Set<(message: PresenceMessage) => void>();
  private channel: MessageChannel | undefined;
  /** Sends and receipts each run one at a time, in order. */
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();
  /** Events published since the last send started: they go out together in the next one. */
  private pending: ChangeEvent[] = [];
  private flushQueued = false;
  /** The last send failed: the warning was given, and is not repeated for every write until a send works. */
  private sendFailing = false;

  constructor(private readonly hooks: SharedBusHooks) {}

  /** The channel opened with `receive` as its message handler. */
  connect(channel: MessageChannel): void {
    this.channel = channel;
  }

  /**
   * Queues the events for the next send. While a send is under way the writes that commit meanwhile
   * gather, so under load one message (one NOTIFY round trip) carries many writes' events instead
   * of each write waiting its turn for a message of its own.
   */
  publish(events: readonly ChangeEvent[], noticed?: boolean): void {
    if (events.length === 0 || noticed) return;
    this.pending.push(...events);
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.sending = this.sending.then(async () => {
      this.flushQueued = false;
      const gathered = this.pending;
      this.pending = [];
      for (const { text, batch } of this.pack(gathered)) {
        await this.sendNow(text, () => batch.forEach((e) => this.listeners.forEach((l) => l(e))));
      }
    });
  }

  /**
   * One message of the events for the write's statement to send at its commit (PostgreSQL:
   * `pg_notify` inside it). Undefined when the channel cannot or is not heard now, or the events
   * need more than one message: the write then publishes them after commit.
   */
  notice(events: readonly ChangeEvent[]): Notice | undefined {
    const channel = this.channel?.statementChannel?.();
    if (!channel || events.length === 0) return undefined;
    const packed = this.pack(events);
    return packed.length === 1 ? { channel, payload: packed[0].text } : undefined;
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notifyWebhooksChanged(): void {
    this.send(JSON.stringify({ node: this.node, webhooks: true } satisfies Envelope), () => this.webhookListeners.forEach((l) => l()));
  }

  onWebhooksChanged(listener: () => void): () => void {
    this.webhookListeners.add(listener);
    return () => this.webhookListeners.delete(listener);
  }

  sendPresence(message: PresenceMessage): void {
    const envelope: Envelope = { node: this.node, presence: message };
    this.send(JSON.stringify(envelope), () => this.presenceListeners.forEach((l) => l(message)));
  }

  onPresence(listener: (message: PresenceMessage) => void): () => void {
    this.presenceListeners.add(listener);
    return () => this.presenceListeners.delete(listener);
  }

  sent(): Promise<void> {
    return this.sending.catch(() => undefined);
  }

  /** A message from the channel (any node's, this one's included). */
  receive(payload: string): void {
    this.receiving = this.receiving
      .then(() => this.handle(payload))
      .catch((err: unknown) => this.hooks.warn('realtime: a bus message could not be handled', err));
  }

  async close(): Promise<void> {
    await this.sending;
    await this.channel?.close();
    await this.receiving;
    this.listeners.clear();
    this.webhookListeners.clear();
    this.presenceListeners.clear();
  }

  /** Sends in order; `unsent` runs when the channel refused, so this node still sees its own changes. */
  private send(text: string, unsent: () => void): void {
    this.sending = this.sending.then(() => this.sendNow(text, unsent));
  }

  private async sendNow(text: string, unsent: () => void): Promise<void> {
    try {
      if (!this.channel) throw new Error('no channel');
      await this.channel.send(text);
      this.sendFailing = false;
    } catch (err) {
      // The other nodes miss these changes (their caches still expire by TTL). A channel known to
      // be down has said so itself (once per outage); other failures are told once per run.
      if (!(err instanceof ChannelUnavailableError) && !this.sendFailing) {
        this.hooks.warn('realtime: could not send changes to the other nodes; delivering them on this node only', err);
      }
      this.sendFailing = !(err instanceof ChannelUnavailableError);
      unsent();
    }
  }

  private async handle(payload: string): Promise<void> {
    const envelope = JSON.parse(payload) as Envelope;
    const remote = envelope.node !== this.node;
    if (envelope.webhooks) {
      for (const listener of this.webhookListeners) listener();
      return;
    }
    // Presence is no change: it bumps no cache on any node (docs/realtime.md, "Presence").
    if (envelope.presence) {
      for (const listener of this.presenceListeners) listener(envelope.presence);
      return;
    }
    for (const event of envelope.events ?? []) {
      if (event.data === undefined) event.data = await this.hooks.fill(event);
      if (remote) this.hooks.remote(event);
      for (const listener of this.listeners) listener(event);
    }
  }

  /** Envelopes of at most the channel's size: as many events each as fit, oversized ones without data. */
  private pack(events: readonly ChangeEvent[]): { text: string; batch: ChangeEvent[] }[] {
    const max = this.channel?.maxBytes ?? Infinity;
    const head = `{"node":"${this.node}","events":[`;
    const out: { text: string; batch: ChangeEvent[] }[] = [];
    let parts: string[] = [];
    let batch: ChangeEvent[] = [];
    let size = head.length + 2;
    const flush = () => {
      if (parts.length > 0) out.push({ text: `${head}${parts.join(',')}]}`, batch });
      parts = [];
      batch = [];
      size = head.length + 2;
    };
    for (const event of events) {
      let json = JSON.stringify(event);
      if (head.length + 2 + Buffer.byteLength(json) > max) json = JSON.stringify({ ...event, data: undefined });
      const bytes = Buffer.byteLength(json) + 1;
      if (size + bytes > max) flush();
      parts.push(json);
      batch.push(event);
      size += bytes;
    }
    flush();
    return out;
  }
}
