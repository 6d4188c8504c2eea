import type { PageAnchor } from './list-query.js';

/** Deep pages start from the nearest anchor at a multiple of this offset. */
export const ANCHOR_STEP = 1000;

/** `meta.total`, and whether it is exact or a lower bound (docs/api.md, "Totals"). */
export interface ListTotal {
  total: number;
  exact: boolean;
}

export interface ListCacheEntry {
  typeVersion: number;
  expires: number;
  /** The total, shared while it is being computed (one count per query shape at a time). */
  total?: Promise<ListTotal>;
  anchors: Map<number, PageAnchor>;
}

/**
 * Per list query (filters, search and order; not the page): its total and its page anchors
 * (the sort key of the row just before offset 1000, 2000, …). Skipping thousands of index entries
 * and counting bounded totals are the costly parts of a list; both stay valid until a write to the
 * type (or the TTL, which bounds staleness on other nodes).
 */
export class ListCache {
  private readonly entries = new Map<string, ListCacheEntry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The entry for `key` built at `typeVersion`, or a fresh one. */
  entry(key: string, typeVersion: number, now = Date.now()): ListCacheEntry {
    const found = this.entries.get(key);
    if (found && found.typeVersion === typeVersion && found.expires > now) return found;
    if (found) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const fresh: ListCacheEntry = { typeVersion, expires: now + this.ttlMs, anchors: new Map() };
    this.entries.set(key, fresh);
    return fresh;
  }
}
