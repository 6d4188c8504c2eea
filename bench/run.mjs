// Vellum benchmark: `npm run bench` (SQLite) or `npm run bench -- --pg` (PostgreSQL).
// Starts the built server in a child process on 127.0.0.1, seeds 100 authors and 10 000 posts
// through the HTTP API, runs each scenario with autocannon and prints one JSON line per scenario
// on stdout (progress and diagnostics go to stderr, so stdout stays machine-readable).
//
// `--scale N`: the posts (N of them) are seeded by the bulk insert instead (bench/seed-bulk.mjs).
// `--mixed`: readers beside writers instead of the scenarios (bench/mixed.mjs), on N posts
// (10 000 without --scale). `--seed-only`: stop after seeding (to time it). `--seed-cache DIR`
// (with --scale): the first run keeps its seeded database (SQLite: a copy of the file in DIR;
// PostgreSQL: a template database), later runs at the same scale start from it instead of
// seeding: for iterating on the server, not for timing the seed. `--locales` (with --scale): the
// posts' title, slug and body are localized (bench/locale-scenarios.mjs) and seeded in three
// locales, and two scenarios read through the chain at that scale (`filter_locale`, `order_locale`).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  cleanups,
  createLog,
  eldReader,
  freePort,
  guardRun,
  npmStartNodeFlags,
  rssKb,
  sampleRss,
  start,
  startBaseline,
  stop,
  waitFor,
} from './lib.mjs';
import { ADMIN, api, cpuMicros, create, PG_ADMIN_URL, pgAdmin, pgQuery, pool, postBody, writeConfig } from './setup.mjs';
import { benchWebhooks } from './webhook-scenarios.mjs';
import { benchScheduleLag, seedDrafts } from './editorial-scenarios.mjs';
import { BENCH_LOCALES, scaleLocaleScenarios, seedLocales } from './locale-scenarios.mjs';
import { runMixed } from './mixed.mjs';
import { seedBulk } from './seed-bulk.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const USE_PG = process.argv.includes('--pg');
// `--only a,b`: run just these scenarios (the seed still runs; the summary needs list20_expand).
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? new Set(process.argv[i + 1].split(',')) : null;
})();
const flagValue = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const MIXED = process.argv.includes('--mixed');
const SEED_ONLY = process.argv.includes('--seed-only');
const SEED_CACHE = flagValue('--seed-cache');
/** Posts seeded by the bulk insert; null: seeded through HTTP as always. */
const SCALE = flagValue('--scale') !== undefined ? Number(flagValue('--scale')) : MIXED ? 10_000 : null;
if (SCALE !== null && !(Number.isInteger(SCALE) && SCALE > 0)) throw new Error('--scale takes a whole number of posts');
if (SEED_CACHE && SCALE === null) throw new Error('--seed-cache needs --scale N (or --mixed)');
const LOCALES = process.argv.includes('--locales');
if (LOCALES && (SCALE === null || MIXED)) throw new Error('--locales needs --scale N (and no --mixed)');
// The node flags `npm start` uses, plus extra ones for profiling (VELLUM_BENCH_SERVER_FLAGS=--cpu-prof).
const SERVER_FLAGS = [...npmStartNodeFlags(), ...(process.env.VELLUM_BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)];
const DIALECT = USE_PG ? 'postgres' : 'sqlite';
const AUTHORS = 100;
const POSTS = 10_000;
const SEED_CONCURRENCY = 20;
const CONNECTIONS = 10;
const WARMUP_S = 2;
const MEASURE_S = 10;
// Hard ceiling for the whole run: a hung server or seed must not keep the process alive. A
// million posts take minutes to seed and to vacuum, and their runs are longer too.
const WATCHDOG_MS = (10 + Math.ceil(((SCALE ?? 0) / 1_000_000) * 15)) * 60_000;

const log = createLog('bench');

const seedAuthors = (base, token) =>
  pool(AUTHORS, SEED_CONCURRENCY, (i) => create(base, token, 'author', { name: `Author ${i}`, bio: `Bio of author ${i}.` }));

async function seed(base, token) {
  const t0 = Date.now();
  const authorIds = await seedAuthors(base, token);
  let done = 0;
  const postIds = await pool(POSTS, SEED_CONCURRENCY, async (i) => {
    const id = await create(base, token, 'post', postBody(i, authorIds));
    if (++done % 1000 === 0) log(`seeded ${done}/${POSTS} posts (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return id;
  });
  log(`seeding done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { authorIds, postIds };
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
    // Bytes on the wire per answer, headers included: what compression changes.
    bytes_per_response: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : null,
  };
  if (cpuBefore !== null && cpuAfter !== null && r.requests.total > 0)
    line.server_cpu_us_per_req = Math.round((cpuAfter - cpuBefore) / r.requests.total);
  // The server's memory right after the scenario, to see which one grows it.
  const kb = pid ? rssKb(pid) : null;
  if (kb) line.rss_after_mb = Math.round(kb / 1024);
  process.stdout.write(JSON.stringify(line) + '\n');
  return line;
}

/**
 * The seed cache (`--seed-cache DIR`): one seeded database per dialect and scale, with the ids the
 * run needs beside it. `restore` copies it into this run's database (false when there is none yet);
 * `save` keeps this run's freshly seeded one. The server is stopped around both.
 */
function seedCache(databaseUrl, dbFile) {
  const key = `${DIALECT}-${SCALE}${LOCALES ? '-locales' : ''}`;
  const idsFile = join(SEED_CACHE, `${key}.json`);
  const cacheDb = `vellum_bench_cache_${SCALE}${LOCALES ? '_locales' : ''}`;
  const cacheFile = join(SEED_CACHE, `${key}.db`);
  return {
    async restore() {
      if (!existsSync(idsFile)) return null;
      if (USE_PG) {
        await pgAdmin(`drop database if exists ${databaseUrl.split('/').pop()} with (force)`);
        await pgAdmin(`create database ${databaseUrl.split('/').pop()} template ${cacheDb}`);
      } else copyFileSync(cacheFile, dbFile);
      return JSON.parse(readFileSync(idsFile, 'utf8'));
    },
    async save(ids) {
      mkdirSync(SEED_CACHE, { recursive: true });
      if (USE_PG) {
        await pgAdmin(`drop database if exists ${cacheDb}`);
        await pgAdmin(`create database ${cacheDb} template ${databaseUrl.split('/').pop()}`);
      } else {
        for (const suffix of ['-wal', '-shm']) if (existsSync(dbFile + suffix)) throw new Error(`${dbFile}${suffix} left after close`);
        copyFileSync(dbFile, cacheFile);
      }
      writeFileSync(idsFile, JSON.stringify(ids));
    },
  };
}

async function main() {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));

  const dbFile = join(tmp, 'bench.db');
  let databaseUrl = `sqlite:${dbFile}`;
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
  const localesOption = LOCALES ? { locales: BENCH_LOCALES } : {};
  const cachedConfig = writeConfig(tmp, 'vellum.config.json', {}, localesOption);
  const uncachedConfig = writeConfig(tmp, 'vellum.uncached.json', { responseCache: false }, localesOption);

  // Default log level (info) on purpose: request logging is part of the real cost. Its stdout is
  // dropped so it neither floods the terminal nor mixes with our JSON lines; stderr stays visible.
  const rss = { active: false, maxKb: 0 };
  const startServer = async (configFile, extraEnv = {}) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // --mixed reads the server's event-loop delay through a preloaded probe (bench/eld-probe.mjs).
    const eldFile = join(tmp, `eld-${port}.json`);
    const probe = MIXED ? ['--import', join(ROOT, 'bench/eld-probe.mjs')] : [];
    if (MIXED) extraEnv = { ...extraEnv, VELLUM_ELD_FILE: eldFile };
    const server = start([...SERVER_FLAGS, ...probe, BIN, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'], {
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
    return { server, base, eld: eldReader(server, eldFile) };
  };

  const cache = SEED_CACHE ? seedCache(databaseUrl, dbFile) : null;
  const cached = cache ? await cache.restore() : null;
  if (cached) log(`seed cache: ${SCALE} posts from ${SEED_CACHE}`);
  let { server, base, eld } = await startServer(cached && MIXED ? uncachedConfig : cachedConfig);
  const login = await api(base, 'POST', '/api/auth/login', null, { username: ADMIN.username, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.json)}`);
  const token = login.json.data.token;
  let authorIds, postIds;
  if (SCALE === null) ({ authorIds, postIds } = await seed(base, token));
  else if (cached) ({ authorIds, postIds } = cached);
  else {
    // Authors through HTTP as always; the posts by the bulk insert, with the server stopped.
    authorIds = await seedAuthors(base, token);
    const adminId = (await api(base, 'GET', `/api/documents/author/${authorIds[0]}`, token)).json.data._createdBy;
    await stop(server, 10_000);
    const env = { DATABASE_URL: databaseUrl, MEDIA_DIR: join(tmp, 'media') };
    const bulk = await seedBulk({ configFile: uncachedConfig, env, n: SCALE, authorIds, adminId, log, locales: LOCALES });
    postIds = bulk.sampleIds;
    const seeding = { scenario: 'seed_bulk', dialect: DIALECT, posts: SCALE, seconds: Math.round(bulk.seconds * 10) / 10 };
    seeding.rows_per_s = Math.round(SCALE / bulk.seconds);
    if (USE_PG) {
      const t0 = performance.now();
      await pgQuery(databaseUrl, 'vacuum analyze');
      seeding.vacuum_analyze_seconds = Math.round((performance.now() - t0) / 100) / 10;
    }
    process.stdout.write(JSON.stringify(seeding) + '\n');
    if (cache) await cache.save({ authorIds, postIds });
    if (SEED_ONLY) return;
    ({ server, base, eld } = await startServer(MIXED ? uncachedConfig : cachedConfig));
  }
  if (USE_PG && SCALE === null) {
    // The test server runs with autovacuum off; a production one would have analysed the fresh
    // table by now. Without statistics the planner guesses, which measures the setup, not Vellum.
    await pgQuery(databaseUrl, 'vacuum analyze');
  }
  if (SEED_ONLY) return;
  if (MIXED) {
    await runMixed({ base, token, authorIds, pid: server.pid, eld, rss, rssKb, dialect: DIALECT, scale: SCALE, log, tmp });
    return;
  }

  const list = '/api/documents/post?limit=20';
  const results = {};
  const run = async (name, path, opts = {}) => {
    if (ONLY && !ONLY.has(name)) return;
    results[name] = await measure(name, { url: base + path, ...opts }, rss, server.pid);
  };
  // Rotate over 100 ids so one cached row does not stand in for the whole table.
  const sampleIds = SCALE === null ? postIds.filter((_, i) => i % (POSTS / 100) === 0) : postIds;
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
  // Compression (docs/api.md, "Compression"): the same page asked for as a browser asks, in each coding.
  const compressed = [
    ['list20_expand_gzip', `${list}&expand=author`, { headers: { 'accept-encoding': 'gzip' } }],
    ['list20_expand_br', `${list}&expand=author`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }],
  ];
  for (const [name, path, opts] of compressed) await run(name, path, opts);
  await run('list20_expand_signed_in', `${list}&expand=author`, { headers: { authorization: `Bearer ${token}` } });

  // Drafts (docs/drafts.md): a fifth of the posts get a pending draft, then the editor's read of
  // them. Seeded after the reads above, so those measure what they measured before drafts existed.
  const draftScenarios = ['list20_expand_drafts', 'list20_expand_drafts_uncached', 'list20_expand_signed_in_uncached'];
  const signedIn = { headers: { authorization: `Bearer ${token}` } };
  if (!ONLY || draftScenarios.some((name) => ONLY.has(name))) await seedDrafts({ base, token, postIds, log });
  await run('list20_expand_drafts', `${list}&expand=author&perspective=drafts`, signedIn);

  // The same reads with the response cache off: every request runs its queries.
  await stop(server, 10_000); // waits for its exit: a --cpu-prof profile is written then
  ({ server, base } = await startServer(uncachedConfig));
  for (const [name, path, opts] of reads) await run(`${name}_uncached`, path, opts);
  for (const [name, path, opts] of compressed) await run(name.replace('_expand', '_expand_uncached'), path, opts);
  // Ordered by the (unindexed) title as stored and naturally, "Post number 9" before "… 10"
  // (docs/api.md, "Natural order"): what computing the natural key of every row costs.
  await run('order_title_uncached', `${list}&orderBy=title&order=asc`);
  await run('order_title_natural_uncached', `${list}&orderBy=title&order=asc&natural=true`);
  // Signed in, each list reads the `_draft` markers of the page; under `drafts` it serves them.
  await run('list20_expand_signed_in_uncached', `${list}&expand=author`, signedIn);
  await run('list20_expand_drafts_uncached', `${list}&expand=author&perspective=drafts`, signedIn);
  if (LOCALES) for (const [name, path, opts] of scaleLocaleScenarios(SCALE)) await run(name, path, opts);

  // Localization (docs/localization.md): the same page as list20_expand_uncached, read in Swiss
  // German through its three-step chain, on a server whose posts have localized titles and bodies.
  // The scenarios above run before the translations; those below see translated posts (their
  // other locales' values stored, never served) on the server without locales again.
  if (SCALE === null && (!ONLY || ONLY.has('list20_expand_locale'))) {
    await stop(server, 10_000);
    ({ server, base } = await startServer(writeConfig(tmp, 'vellum.locales.json', { responseCache: false }, { locales: BENCH_LOCALES })));
    await seedLocales({ base, token, postIds, log });
    // As after seeding: the translations left a dead version of every post behind, which a
    // production server's autovacuum would have cleaned by now.
    if (USE_PG) await pgQuery(databaseUrl, 'vacuum analyze');
    await run('list20_expand_locale', `${list}&expand=author&locale=de-CH`);
    await stop(server, 10_000);
    ({ server, base } = await startServer(uncachedConfig));
  }
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

  // Before the webhook scenarios, whose hooks would queue deliveries for the posts it makes.
  if (!ONLY || ONLY.has('schedule_lag')) results.schedule_lag = await benchScheduleLag({ base, token, authorIds, dialect: DIALECT, log });

  if (!ONLY || ONLY.has('create_webhooks5')) {
    const restart = async (env) => {
      await stop(server, 10_000);
      ({ server, base } = await startServer(uncachedConfig, env));
      return base;
    };
    await benchWebhooks({ base, token, authorIds, run, results, restart, dialect: DIALECT });
  }

  const baseline = await startBaseline(tmp, expandBytes, '/api/documents/post');
  results.baseline_fastify = await measure('baseline_fastify', { url: baseline.url }, null, baseline.child.pid);
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
      drafts_vs_signed_in: ratio(results.list20_expand_drafts.rps, results.list20_expand_signed_in.rps),
      drafts_vs_signed_in_uncached: ratio(results.list20_expand_drafts_uncached.rps, results.list20_expand_signed_in_uncached.rps),
      locale_vs_uncached: ratio(results.list20_expand_locale?.rps, results.list20_expand_uncached.rps),
      br_vs_plain: ratio(results.list20_expand_br.rps, results.list20_expand.rps),
      br_vs_plain_uncached: ratio(results.list20_expand_uncached_br.rps, results.list20_expand_uncached.rps),
      br_bytes_vs_plain: ratio(results.list20_expand_br.bytes_per_response, results.list20_expand.bytes_per_response),
      gzip_bytes_vs_plain: ratio(results.list20_expand_gzip.bytes_per_response, results.list20_expand.bytes_per_response),
      schedule_lag_p99_ms: results.schedule_lag.p99_ms,
      ...webhookFigures,
    }) + '\n',
  );
}

const cleanup = guardRun(log, WATCHDOG_MS);
main().then(cleanup, async (err) => {
  log(`error: ${err.message}`);
  await cleanup();
  process.exitCode = 1;
});
