import type { ChangeEvent } from './change-event.js';

/**
 * The last `capacity` events in the order this node received them, so a stream that reconnects
 * with `Last-Event-ID` gets what it missed (docs/realtime.md, "Resume"). A ring: pushing past the
 * capacity overwrites the oldest. Event ids are the same on every node, so a client may resume on
 * another node than the one it left.
 */
export class EventBacklog {
  private readonly ring: (ChangeEvent | undefined)[];
  /** Where the next event goes; `count` of the slots before it hold events. */
  private next = 0;
  private count = 0;
  private readonly positions = new Map<string, number>();
  /** Events pushed so far: an event's sequence number is its position in this count. */
  private pushed = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array<ChangeEvent | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The id of the newest event held, if any. */
  get newestId(): string | undefined {
    return this.count === 0 ? undefined : this.ring[(this.next - 1 + this.capacity) % this.capacity]?.id;
  }

  push(event: ChangeEvent): void {
    if (this.capacity === 0) return;
    const old = this.ring[this.next];
    if (old) this.positions.delete(old.id);
    this.ring[this.next] = event;
    this.positions.set(event.id, this.pushed++);
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The events after the one with `id`, oldest first; undefined when `id` is not held (too old, or unknown). */
  after(id: string): ChangeEvent[] | undefined {
    const seq = this.positions.get(id);
    if (seq === undefined) return undefined;
    const out: ChangeEvent[] = [];
    // Sequence numbers map to slots: the newest event (seq pushed-1) sits just before `next`.
    for (let s = seq + 1; s < this.pushed; s++)
      out.push(this.ring[(this.next - (this.pushed - s) + this.capacity * 2) % this.capacity] as ChangeEvent);
    return out;
  }
}
