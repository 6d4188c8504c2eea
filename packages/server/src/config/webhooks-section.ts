import { parseDuration } from './duration.js';
import type { ConfigReader } from './reader.js';
import type { WebhooksConfig } from './types.js';

/**
 * The Standard Webhooks / Svix schedule: after the first attempt, retries 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h later, so a receiver that is down for most of a day still gets the event.
 */
export const DEFAULT_RETRY_SCHEDULE = ['5s', '5m', '30m', '2h', '5h', '10h', '10h'];

/**
 * 100 failed attempts in a row (every delivery of the hook counted) switch a hook off. One event
 * alone makes at most 8 attempts, so a quiet hook is never switched off by one bad day; a busy
 * hook whose endpoint is gone stops within its first hundred attempts. Switching off loses
 * nothing: the deliveries wait and resume when the hook is switched on again (docs/webhooks.md).
 */
export const DEFAULT_DISABLE_AFTER_FAILURES = 100;

const KNOWN = ['allowPrivateNetworks', 'timeout', 'retrySchedule', 'disableAfterFailures', 'worker', 'retention'];

/**
 * `webhooks {allowPrivateNetworks, timeout, retrySchedule, disableAfterFailures, worker, retention}`
 * (docs/webhooks.md, "Configuration"); `WEBHOOKS_WORKER=false` runs a node without the worker.
 */
export function webhooksSection(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): WebhooksConfig {
  const o = r.object('webhooks', raw, KNOWN);
  const timeoutMs = duration(r, 'webhooks.timeout', o.timeout, '10s');
  if (timeoutMs > 60_000) r.problem('webhooks.timeout', 'expected at most 60s');
  return {
    allowPrivateNetworks: r.bool('webhooks.allowPrivateNetworks', o.allowPrivateNetworks, false),
    timeoutMs,
    retryScheduleMs: schedule(r, o.retrySchedule),
    disableAfterFailures: r.int('webhooks.disableAfterFailures', o.disableAfterFailures, {
      def: DEFAULT_DISABLE_AFTER_FAILURES,
      min: 1,
    }) as number,
    worker: r.bool(env.WEBHOOKS_WORKER !== undefined ? 'WEBHOOKS_WORKER' : 'webhooks.worker', env.WEBHOOKS_WORKER ?? o.worker, true),
    retentionMs: duration(r, 'webhooks.retention', o.retention, '30d'),
  };
}

function duration(r: ConfigReader, path: string, raw: unknown, def: string): number {
  const value = raw === undefined || raw === null ? def : raw;
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDuration(value) : undefined;
  if (ms === undefined) {
    r.problem(path, 'expected a duration such as "500ms", "10s", "5m" or "30d"');
    return parseDuration(def) as number;
  }
  return ms;
}

/** A list of durations; an empty list means no retries (a failed attempt is final). */
function schedule(r: ConfigReader, raw: unknown): number[] {
  if (raw === undefined || raw === null) return DEFAULT_RETRY_SCHEDULE.map((d) => parseDuration(d) as number);
  if (!Array.isArray(raw)) {
    r.problem('webhooks.retrySchedule', 'expected a list of durations such as ["5s", "5m", "30m"]');
    return DEFAULT_RETRY_SCHEDULE.map((d) => parseDuration(d) as number);
  }
  if (raw.length > 50) r.problem('webhooks.retrySchedule', 'expected at most 50 retries');
  return raw.map((d: unknown, i) => duration(r, `webhooks.retrySchedule[${i}]`, d, '5s'));
}
