/** Windowed counters (rate limits): in memory for one process, in Redis when several nodes share them. */
export interface CounterStore {
  /** The count in the current window of `key` and when that window ends (ms since epoch). */
  get(key: string, now: number): Promise<{ count: number; resetAt: number }>;
  /** Adds one; the first hit opens a window of `windowMs`. */
  increment(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
  /** Shared counters only: whether they are counted in Redis now (false while this node counts on its own). */
  shared?(): boolean;
}
