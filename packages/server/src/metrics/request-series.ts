/**
 * The per-request series (`vellum_http_requests_total`, `vellum_http_request_duration_seconds`)
 * kept in plain counters and turned into prom-client's shape only when scraped. prom-client's own
 * Counter and Histogram hash their label set on every call (about a microsecond and a few strings
 * of garbage per request); here a request costs one map lookup and a few increments.
 */

interface Series {
  route: string;
  method: string;
  status: string;
  count: number;
}

interface Timing {
  route: string;
  method: string;
  /** Observations at most each bucket's bound (not cumulative; summed when scraped). */
  buckets: Float64Array;
  count: number;
  sum: number;
}

/** What prom-client's registry reads from a metric: `get()` answers the values to print. */
export interface RegistryMetric {
  name: string;
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }>;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

export class RequestSeries {
  private readonly counts = new Map<string, Series>();
  private readonly timings = new Map<string, Timing>();

  constructor(private readonly bounds: readonly number[]) {}

  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    const countKey = `${status} ${key}`;
    let series = this.counts.get(countKey);
    if (!series) this.counts.set(countKey, (series = { route, method, status: String(status), count: 0 }));
    series.count++;
    let timing = this.timings.get(key);
    if (!timing) this.timings.set(key, (timing = { route, method, buckets: new Float64Array(this.bounds.length), count: 0, sum: 0 }));
    timing.count++;
    timing.sum += seconds;
    const i = this.bounds.findIndex((b) => seconds <= b);
    if (i >= 0) timing.buckets[i]++;
  }

  /** The two metrics, for `registry.registerMetric`. */
  metrics(names: { requests: string; durations: string }, help: { requests: string; durations: string }): RegistryMetric[] {
    const requests: RegistryMetric = {
      name: names.requests,
      get: async () => ({
        name: names.requests,
        help: help.requests,
        type: 'counter',
        aggregator: 'sum',
        values: [...this.counts.values()].map((s) => ({ labels: { route: s.route, method: s.method, status: s.status }, value: s.count })),
      }),
    };
    const durations: RegistryMetric = {
      name: names.durations,
      get: async () => ({
        name: names.durations,
        help: help.durations,
        type: 'histogram',
        aggregator: 'sum',
        values: [...this.timings.values()].flatMap((t) => {
          const labels = { route: t.route, method: t.method };
          let cumulative = 0;
          const buckets = this.bounds.map((le, i) => {
            cumulative += t.buckets[i];
            return { labels: { le, ...labels }, value: cumulative, metricName: `${names.durations}_bucket` };
          });
          return [
            ...buckets,
            { labels: { le: '+Inf', ...labels }, value: t.count, metricName: `${names.durations}_bucket` },
            { labels, value: t.sum, metricName: `${names.durations}_sum` },
            { labels, value: t.count, metricName: `${names.durations}_count` },
          ];
        }),
      }),
    };
    return [requests, durations];
  }
}
