/**
 * The per-request series (`vellum_http_requests_total`, `vellum_http_request_duration_seconds`)
 * kept in plain counters and turned into prom-client's shape only when scraped. prom-client's own
 * Counter and Histogram hash their label set on every call (about a microsecond and a few strings
 * of garbage per request); here a request costs one map lookup and a few increments.
 */

/** One route template and method: its answers by status, and its latency histogram. */
interface Series {
  route: string;
  method: string;
  byStatus: Map<number, number>;
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
  /** Route template → method → series: no key string is built per request. */
  private readonly routes = new Map<string, Map<string, Series>>();

  constructor(private readonly bounds: readonly number[]) {}

  record(route: string, method: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (!methods) this.routes.set(route, (methods = new Map()));
    let s = methods.get(method);
    if (!s)
      methods.set(method, (s = { route, method, byStatus: new Map(), buckets: new Float64Array(this.bounds.length), count: 0, sum: 0 }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    s.count++;
    s.sum += seconds;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        s.buckets[i]++;
        break;
      }
    }
  }

  private all(): Series[] {
    return [...this.routes.values()].flatMap((methods) => [...methods.values()]);
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
        values: this.all().flatMap((s) =>
          [...s.byStatus].map(([status, count]) => ({
            labels: { route: s.route, method: s.method, status: String(status) },
            value: count,
          })),
        ),
      }),
    };
    const durations: RegistryMetric = {
      name: names.durations,
      get: async () => ({
        name: names.durations,
        help: help.durations,
        type: 'histogram',
        aggregator: 'sum',
        values: this.all().flatMap((t) => {
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

/**
 * A counter with one label whose values are known up front (`hit`/`miss`), kept as plain numbers:
 * `inc` is one property increment; prom-client reads it when scraped.
 */
export function plainCounter<V extends string>(
  name: string,
  help: string,
  label: string,
  values: readonly V[],
): { inc(value: V): void; metric: RegistryMetric } {
  const counts = Object.fromEntries(values.map((v) => [v, 0])) as Record<V, number>;
  return {
    inc: (value) => void counts[value]++,
    metric: {
      name,
      get: async () => ({
        name,
        help,
        type: 'counter',
        aggregator: 'sum',
        values: values.map((v) => ({ labels: { [label]: v }, value: counts[v] })),
      }),
    },
  };
}
