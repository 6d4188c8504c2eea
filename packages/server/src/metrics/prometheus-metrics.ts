import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { Metrics, ScrapeSource } from './metrics.js';
import { RequestSeries, plainCounter } from './request-series.js';

/** Request latency buckets: 5 ms to 5 s, where a CMS's answers live. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Webhook receivers and schedule lag: up to the delivery timeout and beyond. */
const SLOW_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Writes per SQLite COMMIT (the batcher takes at most 32). */
const BATCH_SIZES = [1, 2, 4, 8, 16, 32];

/**
 * Process metrics (CPU, memory, event-loop delay, handles) belong to the process, not to an app:
 * collected once per process however many apps it runs (tests run several), and only once
 * something scrapes.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The Prometheus binding of `Metrics`: one registry per app (never prom-client's global one), so
 * two apps in one process do not share counts. The per-request series are plain counters
 * (request-series.ts); the rarer events use prom-client's metrics directly.
 */
export function prometheusMetrics(info: { version: string; database: string }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  new Gauge({
    name: 'vellum_build_info',
    help: 'Always 1; the labels say which version runs on which database engine.',
    labelNames: ['version', 'database'],
    registers,
  }).set(info, 1);
  const requests = new RequestSeries(SECONDS);
  for (const metric of requests.metrics(
    { requests: 'vellum_http_requests_total', durations: 'vellum_http_request_duration_seconds' },
    {
      requests: 'HTTP requests answered, by route template, method and status.',
      durations: 'Time from the request to the end of its answer, by route template and method.',
    },
  ))
    registry.registerMetric(metric as unknown as Metric);
  const cache = plainCounter(
    'vellum_response_cache_requests_total',
    'Document reads answered from the response cache (hit) or rendered (miss).',
    'result',
    ['hit', 'miss'] as const,
  );
  registry.registerMetric(cache.metric as unknown as Metric);
  const attempts = new Counter({
    name: 'vellum_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: succeeded, failed (will be retried) or dead (given up).',
    labelNames: ['outcome'],
    registers,
  });
  const attemptSeconds = new Histogram({
    name: 'vellum_webhook_delivery_duration_seconds',
    help: 'Time webhook receivers took to answer (attempts that got an answer).',
    buckets: SLOW_SECONDS,
    registers,
  });
  const streams = new Gauge({ name: 'vellum_event_streams_open', help: 'Open /events streams on this node.', registers });
  const streamsOpened = new Counter({ name: 'vellum_event_streams_opened_total', help: '/events streams opened on this node.', registers });
  const schedulesRun = new Counter({
    name: 'vellum_schedules_run_total',
    help: 'Schedules run on this node, by outcome: done, or failed (refused, with the reason kept).',
    labelNames: ['outcome'],
    registers,
  });
  const scheduleLag = new Histogram({
    name: 'vellum_schedule_lag_seconds',
    help: "Seconds between a schedule's time and its run on this node.",
    buckets: SLOW_SECONDS,
    registers,
  });
  const batches = new Histogram({
    name: 'vellum_sqlite_write_batch_size',
    help: 'Writes committed together by the SQLite writer (group commit).',
    buckets: BATCH_SIZES,
    registers,
  });
  let source: ScrapeSource | undefined;
  new Gauge({
    name: 'vellum_db_pool_connections',
    help: 'PostgreSQL pool connections: in_use, idle, and requests waiting for one.',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = source?.pool?.();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'vellum_sqlite_write_queue',
    help: 'Writes waiting for the SQLite writer.',
    registers,
    collect() {
      const queued = source?.writeQueue?.();
      if (queued !== undefined) this.set(queued);
    },
  });
  new Gauge({
    name: 'vellum_webhook_queue_depth',
    help: 'Webhook deliveries not yet finished (pending, waiting for a retry, being attempted), all nodes.',
    registers,
    async collect() {
      if (source) this.set(await source.webhookQueue());
    },
  });

  return {
    request: (route, method, status, seconds) => requests.record(route, method, status, seconds),
    responseCache: (result) => cache.inc(result),
    webhookAttempt(outcome, seconds) {
      attempts.inc({ outcome });
      if (seconds !== undefined) attemptSeconds.observe(seconds);
    },
    eventStreams(delta) {
      streams.inc(delta);
      if (delta > 0) streamsOpened.inc();
    },
    scheduleRun(outcome, lag) {
      schedulesRun.inc({ outcome });
      scheduleLag.observe(Math.max(0, lag));
    },
    writeBatch: (size) => batches.observe(size),
    collectOnScrape(s) {
      source = s;
    },
    async render() {
      const [own, proc] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return { contentType: registry.contentType, body: `${own}\n${proc}` };
    },
  };
}
