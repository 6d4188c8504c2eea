import type { PresenceMessage, PresentUser } from './presence-message.js';

interface Entry extends PresentUser {
  /** Milliseconds (the node's clock): without a new heartbeat the entry is gone from then on. */
  expires: number;
}

type Listener = (type: string, id: string, present: PresentUser[]) => void;

const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

/**
 * Who is at which document, on this node. Every node applies the same bus messages, so every node
 * holds the same map; each expires entries by its own clock, counted from when it heard the last
 * heartbeat (nodes' clocks need not agree). Nothing is written anywhere (docs/realtime.md, "Presence").
 */
export class PresenceRegistry {
  private readonly docs = new Map<string, Map<string, Entry>>();
  private readonly listeners = new Set<Listener>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    // Expired entries are dropped (and their documents' watchers told) within a sixth of the TTL.
    this.timer = setInterval(() => this.sweep(), Math.max(1000, Math.floor(ttlMs / 6)));
    this.timer.unref();
  }

  /** A message from the bus (any node's, this one's included). */
  apply(message: PresenceMessage): void {
    const key = keyOf(message.type, message.id);
    let entries = this.docs.get(key);
    if (message.op === 'left') {
      if (!entries?.delete(message.session)) return;
      if (entries.size === 0) this.docs.delete(key);
      this.changed(message.type, message.id);
      return;
    }
    if (!entries) this.docs.set(key, (entries = new Map()));
    const before = entries.get(message.session);
    const { session, userId, name, field, editing, since } = message;
    entries.set(session, { session, userId, name, field, editing, since: before?.since ?? since, expires: this.now() + this.ttlMs });
    // A heartbeat that changes nothing renews the entry quietly.
    if (!before || before.field !== field || before.editing !== editing || before.name !== name) this.changed(message.type, message.id);
  }

  /** Who is at the document now, earliest arrival first. */
  list(type: string, id: string): PresentUser[] {
    const entries = this.docs.get(keyOf(type, id));
    if (!entries) return [];
    const now = this.now();
    return [...entries.values()]
      .filter((e) => e.expires > now)
      .sort((a, b) => a.since.localeCompare(b.since) || a.session.localeCompare(b.session))
      .map(({ expires: _, ...user }) => user);
  }

  /** When the session arrived at the document, if it is there. */
  since(type: string, id: string, session: string): string | undefined {
    const entry = this.docs.get(keyOf(type, id))?.get(session);
    return entry && entry.expires > this.now() ? entry.since : undefined;
  }

  /** Hears every change of who is at a document (arrivals, leaves, expiries, another field). */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops the entries whose heartbeats stopped, and tells the documents' watchers. */
  sweep(): void {
    const now = this.now();
    for (const [key, entries] of [...this.docs]) {
      let dropped = false;
      for (const [session, entry] of [...entries]) {
        if (entry.expires > now) continue;
        entries.delete(session);
        dropped = true;
      }
      if (entries.size === 0) this.docs.delete(key);
      if (dropped) {
        const [type, id] = key.split('\u0000');
        this.changed(type, id);
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.listeners.clear();
    this.docs.clear();
  }

  private changed(type: string, id: string): void {
    const present = this.list(type, id);
    for (const listener of this.listeners) listener(type, id, present);
  }
}
