// Vellum benchmark: `npm run bench` (SQLite) or `npm run bench -- --pg` (PostgreSQL).
// Starts the built server in a child process on 127.0.0.1, seeds 100 authors and 10 000 posts
// through the HTTP API, runs each scenario with autocannon and prints one JSON line per scenario
// on stdout (progress and diagnostics go to stderr, so stdout stays machine-readable).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { cleanups, createLog, freePort, guardRun, npmStartNodeFlags, rssKb, sampleRss, start, stop, waitFor } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const USE_PG = process.argv.includes('--pg');
// `--only a,b`: run just these scenarios (the seed still runs; the summary needs list20_expand).
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? new Set(process.argv[i + 1].split(',')) : null;
})();
// The node flags `npm start` uses, plus extra ones for profiling (VELLUM_BENCH_SERVER_FLAGS=--cpu-prof).
const SERVER_FLAGS = [...npmStartNodeFlags(), ...(process.env.VELLUM_BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)];
const DIALECT = USE_PG ? 'postgres' : 'sqlite';
const ADMIN = { username: 'admin', password: 'bench-password-1', email: 'admin@example.com' };
const AUTHORS = 100;
const POSTS = 10_000;
const SEED_CONCURRENCY = 20;
const CONNECTIONS = 10;
const WARMUP_S = 2;
const MEASURE_S = 10;
// Hard ceiling for the whole run: a hung server or seed must not keep the process alive.
const WATCHDOG_MS = 10 * 60_000;

const log = createLog('bench');

/** One statement on the maintenance database (create/drop the throwaway bench database). */
async function pgAdmin(statement) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** One statement on the benchmark's own database (not the admin one). */
async function pgQuery(url, statement) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function api(base, method, path, token, body) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000), // a stuck request fails the run instead of hanging it
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Runs fn(i) for i in [0, n) with at most `limit` calls in flight; results keep their index. */
async function pool(n, limit, fn) {
  const out = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

/** Creates one document and aborts the whole run on anything but 201: seeding must be exact. */
async function create(base, token, type, body) {
  const res = await api(base, 'POST', `/api/documents/${type}`, token, { ...body, _status: 'published' });
  if (res.status !== 201) throw new Error(`seeding ${type}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data._id;
}

const CATEGORIES = ['news', 'guide', 'opinion'];
const postBody = (i, authorIds) => ({
  title: `Post number ${i}`,
  body: `# Post ${i}\n\n` + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. '.repeat(4).slice(0, 290),
  category: CATEGORIES[i % CATEGORIES.length],
  price: (i % 500) + 0.99,
  author: authorIds[i % authorIds.length],
});

async function seed(base, token) {
  const t0 = Date.now();
  const authorIds = await pool(AUTHORS, SEED_CONCURRENCY, (i) =>
    create(base, token, 'author', { name: `Author ${i}`, bio: `Bio of author ${i}.` }),
  );
  let done = 0;
  const postIds = await pool(POSTS, SEED_CONCURRENCY, async (i) => {
    const id = await create(base, token, 'post', postBody(i, authorIds));
    if (++done % 1000 === 0) log(`seeded ${done}/${POSTS} posts (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return id;
  });
  log(`seeding done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { authorIds, postIds };
}

/** CPU time (user + system) a process has used so far, in microseconds; null without /proc. */
function cpuMicros(pid) {
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the parenthesised command name (which may hold spaces).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks are 1/100 s on Linux
  } catch {
    return null;
  }
}

/**
 * A 2 s warm-up (discarded: JIT, caches, connection pools) then the 10 s measured run. Besides
 * throughput, the server's CPU time per request: steadier than rps on a shared machine.
 */
async function measure(name, opts, rss, pid) {
  log(`scenario ${name}`);
  await autocannon({ ...opts, connections: opts.connections ?? CONNECTIONS, duration: WARMUP_S });
  if (rss) rss.active = true;
  const cpuBefore = pid ? cpuMicros(pid) : null;
  const r = await autocannon({ ...opts, connections: opts.connections ?? CONNECTIONS, duration: MEASURE_S });
  const cpuAfter = pid ? cpuMicros(pid) : null;
  if (rss) rss.active = false;
  if (r.errors || r.timeouts) log(`  ${name}: ${r.errors} connection errors, ${r.timeouts} timeouts`);
  if (r.non2xx) log(`  ${name}: status codes ${JSON.stringify(r.statusCodeStats)}`);
  const line = {
    scenario: name,
    dialect: DIALECT,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    mean_ms: Math.round(r.latency.average * 1000) / 1000,
    p99_ms: r.latency.p99,
    non2xx: r.non2xx,
  };
  if (cpuBefore !== null && cpuAfter !== null && r.requests.total > 0)
    line.server_cpu_us_per_req = Math.round((cpuAfter - cpuBefore) / r.requests.total);
  // The server's memory right after the scenario, to see which one grows it.
  const kb = pid ? rssKb(pid) : null;
  if (kb) line.rss_after_mb = Math.round(kb / 1024);
  process.stdout.write(JSON.stringify(line) + '\n');
  return line;
}

async function main() {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));

  let databaseUrl = `sqlite:${join(tmp, 'bench.db')}`;
  if (USE_PG) {
    const dbName = `vellum_bench_${randomBytes(6).toString('hex')}`;
    await pgAdmin(`create database ${dbName}`);
    // Registered before the server's stop, so it runs after it (cleanups run in reverse);
    // `with (force)` ends any connection the server left behind anyway.
    cleanups.push(() => pgAdmin(`drop database if exists ${dbName} with (force)`));
    databaseUrl = PG_ADMIN_URL.replace(/\/test$/, `/${dbName}`);
  }

  // Two configurations on the same data: the default (response cache on) and the cache off, so
  // both the cached answers and the real cost of running each query are visible.
  const writeConfig = (name, documents) => {
    const file = join(tmp, name);
    writeFileSync(
      file,
      JSON.stringify({
        security: { adminUser: ADMIN, bcryptRounds: 4 }, // cheap hashing: login is not what we measure
        documents,
        webhooks: { allowPrivateNetworks: true }, // the receiver is on loopback
        schemas: [
          {
            name: 'author',
            fields: [
              { name: 'name', type: 'string', required: true },
              { name: 'bio', type: 'text' },
            ],
          },
          {
            name: 'post',
            fields: [
              { name: 'title', type: 'string', required: true },
              { name: 'slug', type: 'slug', source: 'title' },
              { name: 'body', type: 'markdown' },
              { name: 'category', type: 'select', options: CATEGORIES },
              { name: 'price', type: 'number', indexed: true },
              { name: 'author', type: 'reference', to: 'author' },
            ],
          },
        ],
      }),
    );
    return file;
  };
  const cachedConfig = writeConfig('vellum.config.json', {});
  const uncachedConfig = writeConfig('vellum.uncached.json', { responseCache: false });

  // Default log level (info) on purpose: request logging is part of the real cost. Its stdout is
  // dropped so it neither floods the terminal nor mixes with our JSON lines; stderr stays visible.
  const rss = { active: false, maxKb: 0 };
  const startServer = async (configFile, extraEnv = {}) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = start([...SERVER_FLAGS, BIN, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'], {
      cwd: tmp, // the server's ./data lands in the temp dir, not in the repo
      env: { ...process.env, DATABASE_URL: databaseUrl, MEDIA_DIR: join(tmp, 'media'), ...extraEnv },
      // VELLUM_BENCH_SERVER_STDOUT=file keeps the server's stdout (request log, --trace-gc) for diagnosis.
      stdio: [
        'ignore',
        process.env.VELLUM_BENCH_SERVER_STDOUT ? openSync(process.env.VELLUM_BENCH_SERVER_STDOUT, 'a') : 'ignore',
        'inherit',
      ],
    });
    cleanups.push(() => stop(server, 10_000));
    await waitFor(`${base}/api/health`, server);
    log(`server up on ${base} (${DIALECT}, ${configFile})`);
    sampleRss(server.pid, rss, 200); // counts only while rss.active (a measured run)
    return { server, base };
  };

  let { server, base } = await startServer(cachedConfig);
  const login = await api(base, 'POST', '/api/auth/login', null, { username: ADMIN.username, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.json)}`);
  const token = login.json.data.token;
  const { authorIds, postIds } = await seed(base, token);
  if (USE_PG) {
    // The test server runs with autovacuum off; a production one would have analysed the fresh
    // table by now. Without statistics the planner guesses, which measures the setup, not Vellum.
    await pgQuery(databaseUrl, 'vacuum analyze');
  }

  const list = '/api/documents/post?limit=20';
  const results = {};
  const run = async (name, path, opts = {}) => {
    if (ONLY && !ONLY.has(name)) return;
    results[name] = await measure(name, { url: base + path, ...opts }, rss, server.pid);
  };
  // Rotate over 100 ids so one cached row does not stand in for the whole table.
  const sampleIds = postIds.filter((_, i) => i % (POSTS / 100) === 0);
  let getN = 0;
  const rotatingGet = {
    requests: [{ setupRequest: (req) => ({ ...req, path: `/api/documents/post/${sampleIds[getN++ % sampleIds.length]}?expand=author` }) }],
  };

  // Captured before `create` adds documents, so the baseline serves what list20_expand served.
  const expandBytes = Buffer.from(await (await fetch(`${base}${list}&expand=author`)).arrayBuffer());

  // Reads as the product ships: anonymous (and signed-in) answers come from the response cache
  // until the next write; the signed-in caller's session is still checked on every request.
  const reads = [
    ['list20', list],
    ['list20_expand', `${list}&expand=author`],
    ['filter_select', '/api/documents/post?filter[category]=guide&limit=20'],
    ['get_expand', '', rotatingGet],
    ['offset0', `${list}&offset=0`],
    ['offset9000', `${list}&offset=9000`],
  ];
  for (const [name, path, opts] of reads) await run(name, path, opts);
  await run('list20_expand_signed_in', `${list}&expand=author`, { headers: { authorization: `Bearer ${token}` } });

  // The same reads with the response cache off: every request runs its queries.
  await stop(server, 10_000); // waits for its exit: a --cpu-prof profile is written then
  ({ server, base } = await startServer(uncachedConfig));
  for (const [name, path, opts] of reads) await run(`${name}_uncached`, path, opts);
  // A counter varies the titles, so each insert gets a fresh slug rather than a -N suffix hunt.
  let createN = 0;
  await run('create', '/api/documents/post', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...postBody(createN, authorIds), title: `Bench create ${createN++}`, _status: 'published' }),
        }),
      },
    ],
  });

  // PATCH (JSON Merge Patch) of one field, rotating over 100 documents: a new revision each time.
  let patchN = 0;
  await run('update', '', {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: `/api/documents/post/${sampleIds[patchN % sampleIds.length]}`,
          body: JSON.stringify({ price: (patchN++ % 500) + 0.5 }),
        }),
      },
    ],
  });

  if (!ONLY || ONLY.has('create_webhooks5')) {
    const restart = async (env) => {
      await stop(server, 10_000);
      ({ server, base } = await startServer(uncachedConfig, env));
      return base;
    };
    await benchWebhooks({ base, token, authorIds, run, results, restart });
  }

  // The baseline gets its own child process so it does not share an event loop with autocannon.
  const bodyFile = join(tmp, 'list20_expand.json');
  writeFileSync(bodyFile, expandBytes);
  const baseline = start([join(ROOT, 'bench/baseline-server.mjs'), bodyFile, '/api/documents/post'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => stop(baseline));
  const basePort = await new Promise((resolve, reject) => {
    baseline.stdout.on('data', (d) => {
      const m = /port=(\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    baseline.once('exit', (code) => reject(new Error(`baseline server exited with code ${code}`)));
  });
  const baselineUrl = `http://127.0.0.1:${basePort}/api/documents/post`;
  await waitFor(baselineUrl, baseline);
  results.baseline_fastify = await measure('baseline_fastify', { url: baselineUrl }, null, baseline.pid);
  // What five active webhooks add to a create (the same scenario without and with them).
  const hooked = results.create_webhooks5 && results.create;
  const webhookFigures = hooked
    ? {
        webhooks5_added_p50_ms: results.create_webhooks5.p50_ms - results.create.p50_ms,
        webhooks5_added_mean_ms: Math.round((results.create_webhooks5.mean_ms - results.create.mean_ms) * 100) / 100,
        webhooks5_added_cpu_us_per_write: results.create_webhooks5.server_cpu_us_per_req - results.create.server_cpu_us_per_req,
        ...(results.create_1conn &&
          results.create_webhooks5_1conn && {
            webhooks5_added_mean_ms_1conn:
              Math.round((results.create_webhooks5_1conn.mean_ms - results.create_1conn.mean_ms) * 1000) / 1000,
          }),
      }
    : {};
  if (ONLY) {
    process.stdout.write(
      JSON.stringify({ scenario: 'summary', dialect: DIALECT, max_rss_mb: Math.round(rss.maxKb / 1024), ...webhookFigures }) + '\n',
    );
    return;
  }

  const ratio = (a, b) => (b ? Math.round((a / b) * 1000) / 1000 : null);
  process.stdout.write(
    JSON.stringify({
      scenario: 'summary',
      dialect: DIALECT,
      max_rss_mb: Math.round(rss.maxKb / 1024),
      expand_vs_baseline: ratio(results.list20_expand.rps, results.baseline_fastify.rps),
      expand_uncached_vs_baseline: ratio(results.list20_expand_uncached.rps, results.baseline_fastify.rps),
      offset0_vs_offset9000_rps_uncached: ratio(results.offset0_uncached.rps, results.offset9000_uncached.rps),
      ...webhookFigures,
    }) + '\n',
  );
}

/**
 * What webhooks cost (docs/webhooks.md, "Delivery"): five active hooks take `document.created` of
 * posts, on a local receiver (a child process).
 * - `create_webhooks5`: the create scenario with them, on a node whose worker is off: what the
 *   outbox adds to a write (five delivery rows in its transaction), nothing else.
 * - `webhook_delivery`: a node with the worker then delivers that backlog; deliveries per second
 *   reaching the receiver over a fixed window (the backlog is larger than the window can drain).
 * - `create_webhooks5_delivering`: creates again while the worker delivers on the same node (two
 *   cores shared by autocannon, the server's writes and its deliveries): the whole cost.
 */
/** How long the delivery rate is measured for. */
const DELIVERY_WINDOW_MS = 15_000;

async function benchWebhooks({ base, token, authorIds, run, results, restart }) {
  const receiver = start([join(ROOT, 'bench/webhook-receiver.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => stop(receiver));
  const port = await new Promise((resolve, reject) => {
    receiver.stdout.on('data', (d) => {
      const m = /port=(\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    receiver.once('exit', (code) => reject(new Error(`webhook receiver exited with code ${code}`)));
  });
  const received = async () => (await (await fetch(`http://127.0.0.1:${port}/count`)).json()).received;
  const addHooks = async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const res = await api(base, 'POST', '/api/webhooks', token, {
        name: `bench ${i}`,
        url: `http://127.0.0.1:${port}/hook/${i}`,
        events: ['document.created'],
        types: ['post'],
      });
      if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.json)}`);
      ids.push(res.json.data.webhook.id);
    }
    return ids;
  };
  // Deleting the hooks deletes what they still had queued: the next step starts from nothing.
  const removeHooks = async (ids) => {
    for (const id of ids) await api(base, 'DELETE', `/api/webhooks/${id}`, token);
  };
  let n = 0;
  const creates = {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...postBody(n, authorIds), title: `Bench hooked ${n++}` }) }),
      },
    ],
  };

  // 1. The outbox alone: no worker on this node. One connection as well as the usual ten: with
  //    ten the server is saturated and latency is throughput (queueing); with one it is what a
  //    single write costs. autocannon's percentiles are whole milliseconds, so the mean is compared.
  base = await restart({ WEBHOOKS_WORKER: 'false' });
  await run('create_1conn', '/api/documents/post', { ...creates, connections: 1 });
  let hooks = await addHooks();
  await run('create_webhooks5', '/api/documents/post', creates);
  await run('create_webhooks5_1conn', '/api/documents/post', { ...creates, connections: 1 });
  await new Promise((r) => setTimeout(r, 500)); // requests autocannon left in flight

  // 2. A node with the worker delivers that backlog (far more than it can send in the window):
  //    deliveries per second over a fixed window once it is up.
  base = await restart({});
  const before = await received();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, DELIVERY_WINDOW_MS));
  const got = (await received()) - before;
  const seconds = (performance.now() - started) / 1000;
  results.webhook_delivery = {
    scenario: 'webhook_delivery',
    dialect: DIALECT,
    deliveries: got,
    seconds: Math.round(seconds * 10) / 10,
    per_s: Math.round(got / seconds),
  };
  process.stdout.write(JSON.stringify(results.webhook_delivery) + '\n');
  await removeHooks(hooks);

  // 3. Writes while the same node delivers what they queue.
  hooks = await addHooks();
  await run('create_webhooks5_delivering', '/api/documents/post', creates);
  await removeHooks(hooks);
}

const cleanup = guardRun(log, WATCHDOG_MS);
main().then(cleanup, async (err) => {
  log(`error: ${err.message}`);
  await cleanup();
  process.exitCode = 1;
});
