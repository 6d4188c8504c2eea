import { createRequire } from 'node:module';
import type { VellumConfig } from './config/types.js';
import type { Database } from './storage/database.js';
import { countUnfinishedDeliveries } from './storage/webhooks/webhook-claims.js';
import { NO_METRICS, type Metrics } from './metrics/metrics.js';
import { prometheusMetrics } from './metrics/prometheus-metrics.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * The app's metrics (docs/operations.md, "Metrics"), wired to what storage can tell on a scrape.
 * With `metrics.enabled: false` nothing is measured and nothing is hooked in.
 */
export function openMetrics(config: VellumConfig, database: Database): Metrics {
  if (!config.metrics.enabled) return NO_METRICS;
  const metrics = prometheusMetrics({ version, database: database.engine });
  const { batcher } = database;
  if (batcher) batcher.onCommit = (size) => metrics.writeBatch(size);
  metrics.collectOnScrape({
    pool: database.poolStats,
    writeQueue: batcher ? () => batcher.queued : undefined,
    webhookQueue: () => countUnfinishedDeliveries(database),
  });
  return metrics;
}
