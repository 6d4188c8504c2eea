import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

/**
 * The Prometheus project's own parser of the text format (client_python's
 * `text_string_to_metric_families`, Debian's python3-prometheus-client, which .ci/run installs),
 * so what we serve is read the way a Prometheus-side tool reads it, not by code of ours. It
 * raises on any line that breaks the format.
 */
const PARSE = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for f in text_string_to_metric_families(sys.stdin.read()):
    out.append({'name': f.name, 'type': f.type, 'help': f.documentation,
                'samples': [{'name': s.name, 'labels': s.labels,
                             'value': s.value if math.isfinite(s.value) else str(s.value)} for s in f.samples]})
print(json.dumps(out))
`;

export interface MetricFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'unknown';
  help: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number | string }>;
}

export function parsePrometheusText(text: string): MetricFamily[] {
  const run = spawnSync('/usr/bin/python3', ['-c', PARSE], { input: text, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the Prometheus parser refused the text: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as MetricFamily[];
}

/** One scrape of `GET /api/metrics`, parsed. */
export interface Scrape {
  families: MetricFamily[];
  /** The value of the sample named `sample` with exactly these labels (0 when the series does not exist yet). */
  value(sample: string, labels?: Record<string, string>): number;
  family(name: string): MetricFamily | undefined;
}

export async function scrape(t: TestApp, headers: Record<string, string>): Promise<Scrape> {
  const res = await t.request({ method: 'GET', url: '/api/metrics', headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusText(res.body);
  return {
    families,
    value: (sample, labels = {}) => {
      const found = families.flatMap((f) => f.samples).find((s) => s.name === sample && sameLabels(s.labels, labels));
      return Number(found?.value ?? 0);
    },
    family: (name) => families.find((f) => f.name === name),
  };
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
