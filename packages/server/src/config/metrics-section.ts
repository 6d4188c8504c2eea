import type { ConfigReader } from './reader.js';
import type { VellumConfig } from './types.js';

/**
 * `metrics {enabled, token}` (docs/operations.md, "Metrics"). On by default, answering callers
 * with `settings:read`; a `token` (or `VELLUM_METRICS_TOKEN`) lets a scraper in with
 * `Authorization: Bearer <token>`. `false` (or `enabled: false`) takes the route away.
 */
export function metricsSection(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): VellumConfig['metrics'] {
  if (raw === false) return { enabled: false };
  const o = r.object('metrics', raw, ['enabled', 'token']);
  const source = env.VELLUM_METRICS_TOKEN !== undefined ? 'VELLUM_METRICS_TOKEN' : 'metrics.token';
  const token = r.string(source, env.VELLUM_METRICS_TOKEN ?? o.token);
  // A scrape token is a password for the numbers: long enough not to be guessed.
  if (token !== undefined && token.length < 16) r.problem(source, 'must be at least 16 characters');
  return { enabled: r.bool('metrics.enabled', o.enabled, true), ...(token !== undefined ? { token } : {}) };
}
