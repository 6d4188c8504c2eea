/**
 * What the service measures (docs/operations.md, "Metrics"). Each layer records into this
 * interface where it knows the fact (the request hook, the response cache, the webhook worker,
 * the schedule runner, the event streams); the Prometheus binding (prometheus-metrics.ts) is the
 * only code that knows prom-client. With `metrics.enabled: false` the service gets `NO_METRICS`,
 * whose calls do nothing.
 */
export interface Metrics {
  /** One answered request: its route *template* (never the raw URL), method, status and seconds taken. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A document read answered from the response cache (`hit`) or rendered (`miss`). */
  responseCache(result: 'hit' | 'miss'): void;
  /** One webhook attempt's outcome (the row's new status) and how long the receiver took (none when nothing answered). */
  webhookAttempt(outcome: 'succeeded' | 'failed' | 'dead', seconds: number | undefined): void;
  /** An event stream opened (+1) or closed (−1). */
  eventStreams(delta: 1 | -1): void;
  /** A schedule run, its outcome recorded: seconds between its `at` and the moment it ran. */
  scheduleRun(outcome: 'done' | 'failed', lagSeconds: number): void;
  /** The SQLite writer committed a batch of this many writes. */
  writeBatch(size: number): void;
  /** Values read when scraped (pool, queues); set once at start-up. */
  collectOnScrape(source: ScrapeSource): void;
  /** The text exposition format and its content type; `undefined` when metrics are off. */
  render(): Promise<{ contentType: string; body: string } | undefined>;
}

/** Values that are cheap to read when scraped and wasteful to track on every change. */
export interface ScrapeSource {
  /** PostgreSQL pool connections; undefined on SQLite. */
  pool?: () => { total: number; idle: number; waiting: number };
  /** Writes waiting for the SQLite writer; undefined on PostgreSQL. */
  writeQueue?: () => number;
  /** Webhook deliveries not yet finished (pending, retrying, being attempted): one indexed count. */
  webhookQueue: () => Promise<number>;
}

const nothing = () => undefined;

/** Metrics switched off: every call is a no-op, so requests pay nothing for them. */
export const NO_METRICS: Metrics = {
  request: nothing,
  responseCache: nothing,
  webhookAttempt: nothing,
  eventStreams: nothing,
  scheduleRun: nothing,
  writeBatch: nothing,
  collectOnScrape: nothing,
  render: async () => undefined,
};
