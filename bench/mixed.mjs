// `--mixed`: readers beside writers (issue 14). On the uncached configuration (every read runs its
// queries), after seeding:
//   reads_alone      10 connections on list + expand author, 20 s
//   reads_with_writes the same readers and 2 connections creating posts, together, 20 s
//                     (these two alternate, twice each; a line per window, then each pooled)
//   filter_alone     10 connections on a filtered list, 15 s (max latency too)
//   cold_after_write 5 times: one write, then one filtered and one plain list right after it
//   machine_baseline  first: a bare Fastify (bench/baseline-server.mjs) answering the bytes of one
//                     list + expand, 10 connections, 10 s: what this machine serves right now with
//                     none of Vellum's work. This machine's speed drifts by a third between runs
//                     minutes apart, so compare runs by their ratio to it, not by raw figures.
// Read latencies are every response's own time (autocannon's 'response' event), so percentiles
// keep their fractions: autocannon's histogram counts whole milliseconds, and at 4-9 ms that is a
// step of 10-25 %, too coarse for "p99 with writers <= 2x p99 alone".
// Each measured window follows a 2 s warm-up (as measure() in run.mjs does). Every line carries
// the server's maximum RSS over the window, its event-loop delay (bench/eld-probe.mjs) and its
// CPU time per request (all threads).
// The end: a summary line and the targets, each passed or failed (the run itself does
// not fail on them).
import autocannon from 'autocannon';
import { startBaseline, stop } from './lib.mjs';
import { cpuMicros, postBody } from './setup.mjs';

const READERS = 10;
const WRITERS = 2;
const WARMUP_S = 2;
const MIXED_S = 20;
const FILTER_S = 15;
const COLD_TRIES = 5;
/** Windows of reads alone and of reads with writers, alternating. */
const ROUNDS = 2;
const LIST_EXPAND = '/api/documents/post?limit=20&expand=author';
// `status` is no field of the bench's posts: the document status is the system field `_status`.
const FILTERED = '/api/documents/post?filter[_status]=published&limit=20';
const PLAIN = '/api/documents/post?limit=20';

const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The `q` quantile (0..1) of the sorted `times`, by nearest rank; 0.1 ms precision. */
const quantile = (times, q) => (times.length ? round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)], 1) : undefined);

/**
 * Windows of the same runs as one: every response's time together, rates and CPU averaged, RSS
 * and event-loop delay at their worst.
 */
function pooled(windows) {
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const results = windows[0].results.map((_, i) => {
    const rs = windows.map((w) => w.results[i]);
    return {
      times: rs.flatMap((r) => r.times).sort((a, b) => a - b),
      requests: { average: mean(rs.map((r) => r.requests.average)), total: rs.reduce((n, r) => n + r.requests.total, 0) },
      latency: { max: Math.max(...rs.map((r) => r.latency.max)) },
      non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
    };
  });
  const worst = (key) => Math.max(...windows.map((w) => w.extra[key] ?? NaN));
  const extra = {
    max_rss_mb: worst('max_rss_mb'),
    eld_p50_ms: worst('eld_p50_ms'),
    eld_p99_ms: worst('eld_p99_ms'),
    eld_max_ms: worst('eld_max_ms'),
    server_cpu_us_per_req: Math.round(mean(windows.map((w) => w.extra.server_cpu_us_per_req ?? NaN))),
  };
  return { results, extra };
}

/** Runs autocannon with `opts`; `times` (if given) receives every 2xx response's time in ms. */
function cannon(opts, times) {
  const instance = autocannon(opts);
  if (times) instance.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
  return instance;
}

/**
 * Runs the phases on the server at `base` (`pid`, its `eld` reader and the `rss` sampler of
 * run.mjs) and prints one JSON line per phase, the summary and the targets. `scale`: the number
 * of seeded posts, printed with the figures (the targets apply at 1 000 000).
 */
export async function runMixed({ base, token, authorIds, pid, eld, rss, rssKb, dialect, scale, log, tmp }) {
  const out = (line) => process.stdout.write(JSON.stringify({ dialect, posts: scale, ...line }) + '\n');
  let n = 0;
  const writes = {
    url: base + '/api/documents/post',
    connections: WRITERS,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...postBody(n, authorIds), title: `Mixed write ${n++} ${Date.now()}`, _status: 'published' }),
        }),
      },
    ],
  };
  const reads = { url: base + LIST_EXPAND, connections: READERS };

  /** Warm-up, then the measured window of every run in `runs` at once, with RSS and event-loop delay over the window. */
  const window = async (name, seconds, runs) => {
    log(`mixed: ${name}`);
    await Promise.all(runs.map((opts) => autocannon({ ...opts, duration: WARMUP_S })));
    rss.maxKb = 0;
    rss.active = true;
    await eld(); // starts the probe's window afresh
    const cpuBefore = cpuMicros(pid);
    const times = runs.map(() => []);
    const results = await Promise.all(runs.map((opts, i) => cannon({ ...opts, duration: seconds }, times[i])));
    for (const t of times) t.sort((a, b) => a - b);
    results.forEach((r, i) => (r.times = times[i]));
    const cpuAfter = cpuMicros(pid);
    const loop = await eld();
    rss.active = false;
    const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
    for (const r of results) {
      if (r.errors || r.timeouts) log(`  ${name}: ${r.errors} connection errors, ${r.timeouts} timeouts`);
      if (r.non2xx) log(`  ${name}: status codes ${JSON.stringify(r.statusCodeStats)}`);
    }
    const extra = {
      max_rss_mb: Math.round((rss.maxKb || rssKb(pid) || 0) / 1024),
      eld_p50_ms: loop?.p50_ms,
      eld_p99_ms: loop?.p99_ms,
      eld_max_ms: loop?.max_ms,
      server_cpu_us_per_req:
        cpuBefore !== null && cpuAfter !== null && requests > 0 ? Math.round((cpuAfter - cpuBefore) / requests) : undefined,
    };
    return { results, extra };
  };
  const readFigures = (r) => ({
    reads_rps: Math.round(r.requests.average),
    read_p50_ms: quantile(r.times, 0.5),
    read_p99_ms: quantile(r.times, 0.99),
    read_p999_ms: quantile(r.times, 0.999),
    read_max_ms: round(r.times.at(-1) ?? r.latency.max, 1),
    read_non2xx: r.non2xx,
  });

  // The machine's speed right now: the same answer's bytes from a bare Fastify, nothing else running.
  const bytes = Buffer.from(await (await fetch(base + LIST_EXPAND)).arrayBuffer());
  const baseline = await startBaseline(tmp, bytes, '/api/documents/post');
  log('mixed: machine_baseline');
  await autocannon({ url: baseline.url, connections: READERS, duration: WARMUP_S });
  const b = await autocannon({ url: baseline.url, connections: READERS, duration: 10 });
  await stop(baseline.child);
  const baselineRps = Math.round(b.requests.average);
  out({ scenario: 'machine_baseline', rps: baselineRps, p50_ms: b.latency.p50, p99_ms: b.latency.p99 });
  const vsBaseline = (rps) => Math.round((1000 * rps) / baselineRps) / 1000;

  // Alone and with writers alternate, ROUNDS times each, and each figure pools its windows: the
  // machine's speed drifts within minutes, and the p99 ratio target must not read that drift.
  const aloneWindows = [];
  const mixedWindows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await window(`reads_alone ${round}/${ROUNDS}`, MIXED_S, [reads]);
    out({ scenario: 'reads_alone_window', window: round, ...readFigures(a.results[0]), ...a.extra });
    aloneWindows.push(a);
    const m = await window(`reads_with_writes ${round}/${ROUNDS}`, MIXED_S, [reads, writes]);
    out({
      scenario: 'reads_with_writes_window',
      window: round,
      ...readFigures(m.results[0]),
      writes_per_s: Math.round(m.results[1].requests.average),
      ...m.extra,
    });
    mixedWindows.push(m);
  }
  const alone = pooled(aloneWindows);
  const aloneLine = { scenario: 'reads_alone', windows: ROUNDS, ...readFigures(alone.results[0]), ...alone.extra };
  out(aloneLine);

  const mixed = pooled(mixedWindows);
  const w = mixed.results[1];
  const mixedLine = {
    scenario: 'reads_with_writes',
    windows: ROUNDS,
    ...readFigures(mixed.results[0]),
    writes_per_s: Math.round(w.requests.average),
    write_p50_ms: quantile(w.times, 0.5),
    write_p99_ms: quantile(w.times, 0.99),
    write_non2xx: w.non2xx,
    ...mixed.extra,
  };
  out(mixedLine);

  const filter = await window('filter_alone', FILTER_S, [{ url: base + FILTERED, connections: READERS }]);
  const f = filter.results[0];
  const filterLine = {
    scenario: 'filter_alone',
    rps: Math.round(f.requests.average),
    p50_ms: quantile(f.times, 0.5),
    p99_ms: quantile(f.times, 0.99),
    p999_ms: quantile(f.times, 0.999),
    max_ms: round(f.times.at(-1) ?? f.latency.max, 1),
    non2xx: f.non2xx,
    ...filter.extra,
  };
  out(filterLine);

  // The first list after a write: whatever the write left to the next read (a dropped cache, a
  // changed count) is paid here. Timed from this process, one request at a time, nothing else running.
  const timed = async (path, init) => {
    const t0 = performance.now();
    const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${path}: ${res.status}`);
    return performance.now() - t0;
  };
  const cold = { filtered: [], plain: [] };
  for (let i = 0; i < COLD_TRIES; i++) {
    await timed('/api/documents/post', {
      method: 'POST',
      headers: writes.headers,
      body: JSON.stringify({ ...postBody(n, authorIds), title: `Cold write ${n++} ${Date.now()}`, _status: 'published' }),
    });
    cold.filtered.push(await timed(FILTERED));
    cold.plain.push(await timed(PLAIN));
  }
  const coldLine = {
    scenario: 'cold_after_write',
    filtered_ms: cold.filtered.map((x) => round(x, 1)),
    plain_ms: cold.plain.map((x) => round(x, 1)),
    max_filtered_ms: round(Math.max(...cold.filtered), 1),
    max_plain_ms: round(Math.max(...cold.plain), 1),
  };
  out(coldLine);

  out({
    scenario: 'mixed_summary',
    reads_rps_alone: aloneLine.reads_rps,
    reads_rps_with_writers: mixedLine.reads_rps,
    machine_baseline_rps: baselineRps,
    reads_alone_vs_baseline: vsBaseline(aloneLine.reads_rps),
    reads_with_writers_vs_baseline: vsBaseline(mixedLine.reads_rps),
    read_p50_p99_with_writers_ms: [mixedLine.read_p50_ms, mixedLine.read_p99_ms],
    writes_per_s: mixedLine.writes_per_s,
    filter_rps: filterLine.rps,
    filter_p99_p999_max_ms: [filterLine.p99_ms, filterLine.p999_ms, filterLine.max_ms],
    cold_list_max_ms: Math.max(coldLine.max_filtered_ms, coldLine.max_plain_ms),
    eld_p99_ms_max: Math.max(...[aloneLine, mixedLine, filterLine].map((l) => l.eld_p99_ms ?? NaN)),
    max_rss_mb: Math.max(aloneLine.max_rss_mb, mixedLine.max_rss_mb, filterLine.max_rss_mb),
  });

  // The targets (stated for 1 000 000 posts; printed at every scale).
  const eldP99 = Math.max(mixedLine.eld_p99_ms ?? Infinity, filterLine.eld_p99_ms ?? Infinity);
  const targets = [
    ['read p99 with writers <= 2x reads-alone p99', mixedLine.read_p99_ms, 2 * aloneLine.read_p99_ms],
    ['reads/s with writers >= 1000', mixedLine.reads_rps, 1000, 'min'],
    ['writes/s >= 150', mixedLine.writes_per_s, 150, 'min'],
    ['every cold list <= 50 ms', coldLine.max_filtered_ms > coldLine.max_plain_ms ? coldLine.max_filtered_ms : coldLine.max_plain_ms, 50],
    ['no request > 100 ms in the filtered run', filterLine.max_ms, 100],
    ['event-loop delay p99 <= 20 ms (with writers, filtered run)', eldP99, 20],
  ];
  for (const [target, value, limit, kind] of targets) {
    const pass = kind === 'min' ? value >= limit : value <= limit;
    out({ scenario: 'target', target, value, limit, pass });
    log(`target ${pass ? 'PASS' : 'FAIL'}: ${target} (${value} vs ${limit})`);
  }
}
