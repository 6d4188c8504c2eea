import type { Notice } from '../../storage/pubsub/message-channel.js';
import type { ChangeEvent } from './change-event.js';
import type { PresenceMessage } from '../presence/presence-message.js';

/**
 * Committed changes, for the realtime stream and cache invalidation (docs/realtime.md). Writers
 * publish after their transaction commits; every subscriber on every node sees the events in one
 * order. This in-process bus serves one node; the shared one (`SharedChangeBus`: PostgreSQL
 * LISTEN/NOTIFY or Redis) has the same shape.
 */
export interface ChangeBus {
  /**
   * After commit. `noticed`: the write's own statement already sent them (`notice`), so every node,
   * this one too, hears them from the channel: nothing is sent again.
   */
  publish(events: readonly ChangeEvent[], noticed?: boolean): void;
  /**
   * The events as the message a write's statement can send at its commit (a channel with a
   * `statementChannel`), or undefined: they are published after commit as usual.
   */
  notice(events: readonly ChangeEvent[]): Notice | undefined;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /** The webhooks changed on this node: every node (this one too) reloads its list of active hooks. */
  notifyWebhooksChanged(): void;
  /** Returns the unsubscribe function. */
  onWebhooksChanged(listener: () => void): () => void;
  /**
   * Who is at a document (docs/realtime.md, "Presence"): every node, this one too, hears it. It is
   * no change: no cache is bumped, no webhook or audit record made, nothing stored.
   */
  sendPresence(message: PresenceMessage): void;
  /** Returns the unsubscribe function. */
  onPresence(listener: (message: PresenceMessage) => void): () => void;
  /** Changes travel to other nodes (a shared channel), not only to this process's subscribers. */
  readonly crossesNodes: boolean;
  /**
   * Settles once every change published so far has been handed to the channel (or refused by it):
   * a write's answer waits for it, so another node hears of the write about when its caller does
   * (docs/operations.md, "Several nodes").
   */
  sent(): Promise<void>;
  close(): Promise<void>;
}

/** One process: publish calls the listeners synchronously, in order. */
export class LocalChangeBus implements ChangeBus {
  readonly crossesNodes = false;
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly webhookListeners = new Set<() => void>();
  private readonly presenceListeners = new Set<(message: PresenceMessage) => void>();

  publish(events: readonly ChangeEvent[]): void {
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  notice(): undefined {
    return undefined;
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notifyWebhooksChanged(): void {
    for (const listener of this.webhookListeners) listener();
  }

  onWebhooksChanged(listener: () => void): () => void {
    this.webhookListeners.add(listener);
    return () => this.webhookListeners.delete(listener);
  }

  sendPresence(message: PresenceMessage): void {
    for (const listener of this.presenceListeners) listener(message);
  }

  onPresence(listener: (message: PresenceMessage) => void): () => void {
    this.presenceListeners.add(listener);
    return () => this.presenceListeners.delete(listener);
  }

  sent(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.webhookListeners.clear();
    this.presenceListeners.clear();
  }
}
