import type { PageAnchor } from '../../storage/list-documents-query.js';

/** Deep pages start from the nearest anchor at a multiple of this offset. */
export const ANCHOR_STEP = 1000;

interface Entry {
  typeVersion: number;
  expires: number;
  total?: number;
  anchors: Map<number, PageAnchor>;
}

/**
 * Per list query (filters, search and order; not the page): its total and its page anchors
 * (the sort key of the row just before offset 1000, 2000, …). Counting and skipping thousands of
 * index entries is the costly part of a list; both stay valid until a write to the type (or the
 * TTL, which bounds staleness on other nodes).
 */
export class ListCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The entry for `key` built at `typeVersion`, or a fresh one. */
  entry(key: string, typeVersion: number, now = Date.now()): Entry {
    const found = this.entries.get(key);
    if (found && found.typeVersion === typeVersion && found.expires > now) return found;
    if (found) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const fresh: Entry = { typeVersion, expires: now + this.ttlMs, anchors: new Map() };
    this.entries.set(key, fresh);
    return fresh;
  }
}
