// Before/after on the same machine: `npm run bench:compare -- --base DIR [--pg] [--rounds 4]
// [--seconds 5] [--only a,b] [--base-env K=V] [--base-flags "..."] [--env K=V] [--flags "..."] [--pin]
// [--control] [--restarts K] [--together]`.
//
// Why not two `npm run bench` runs one after the other: this machine's speed drifts by a third
// and more between runs minutes apart (the bare Fastify baseline served 18 600 req/s in one run and
// 29 000 in the next), so two single runs say nothing at 5 %. Here both builds serve at once, each
// on its own database seeded with the same documents, and every scenario alternates between them
// in short windows (head, base, base, head, ...): drift then hits both sides alike, and each
// round's ratio compares two windows seconds apart.
//
// `--control` adds a third server: the base build again, on a third database seeded alike, in the
// same rounds. Its ratio to the base (control/base) is the noise of this run measured under the
// same conditions as head/base, so a head/base of 0.95 can be read against, say, 0.97–1.03.
//
// `--restarts K` splits each scenario's rounds into K blocks and starts every server afresh before
// each block. Two processes of one build differ by a few per cent for as long as they live (how
// the JIT and the heap happened to settle), which more rounds of the same processes cannot average
// out; K processes per side can.
//
// `--together` loads every side at once in each window instead of one after the other: the servers
// share the pinned core (with `--pin`) and whatever the machine does to one window it does to all
// sides alike. The ratio to read is then CPU per request (the scheduler gives the servers about
// equal time, so req/s follows it).
//
// `head` is this checkout; `base` is `--base DIR`, another checkout with its packages built (e.g.
// `git worktree add /tmp/before <rev> && cp -a node_modules /tmp/before && (cd /tmp/before && npm
// run build)`), or this checkout again to compare node flags or environment only. Prints one JSON
// line per scenario on stdout (medians over the rounds), a table on stderr. The webhook scenarios
// of run.mjs are not repeated here (a create with hooks runs the create path measured here).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { cleanups, createLog, freePort, guardRun, rssKb, sampleRss, start, stop, waitFor } from './lib.mjs';
import { ADMIN, api, cpuMicros, create, PG_ADMIN_URL, pgAdmin, pgQuery, pool, postBody, writeConfig } from './setup.mjs';

const argValue = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const USE_PG = process.argv.includes('--pg');
const PIN = process.argv.includes('--pin');
const CONTROL = process.argv.includes('--control');
const RESTARTS = Number(argValue('--restarts') ?? 1);
const TOGETHER = process.argv.includes('--together');
const DIALECT = USE_PG ? 'postgres' : 'sqlite';
const ROUNDS = Number(argValue('--rounds') ?? 4);
const SECONDS = Number(argValue('--seconds') ?? 5);
const ONLY = argValue('--only') ? new Set(argValue('--only').split(',')) : null;
const POSTS = Number(argValue('--posts') ?? 10_000);
const AUTHORS = 100;
const CONNECTIONS = 10;
const envOf = (flag) =>
  Object.fromEntries(process.argv.flatMap((a, i) => (process.argv[i - 1] === flag ? [a.split(/=(.*)/s).slice(0, 2)] : [])));
const flagsOf = (flag) => (argValue(flag) ?? '').split(' ').filter(Boolean);

const HEAD = resolve(new URL('..', import.meta.url).pathname);
const BASE = resolve(argValue('--base') ?? HEAD);
const SIDES = [
  { name: 'head', root: HEAD, env: envOf('--env'), flags: flagsOf('--flags') },
  { name: 'base', root: BASE, env: envOf('--base-env'), flags: flagsOf('--base-flags') },
  ...(CONTROL ? [{ name: 'control', root: BASE, env: envOf('--base-env'), flags: flagsOf('--base-flags') }] : []),
];
const log = createLog('compare');

/** The node flags of a checkout's own `npm start` (a base from before a flag change runs with its own). */
function startFlags(root) {
  const tokens = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  return tokens.slice(
    1,
    tokens.findIndex((t) => t.endsWith('.js')),
  );
}

async function startServer(side, configFile, tmp) {
  const bin = join(side.root, 'packages/cli/dist/bin.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build that checkout first`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start(
    [...startFlags(side.root), ...side.flags, bin, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: tmp,
      env: { ...process.env, DATABASE_URL: side.databaseUrl, MEDIA_DIR: join(tmp, `media-${side.name}`), ...side.env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  cleanups.push(() => stop(server, 10_000));
  await waitFor(`${base}/api/health`, server);
  // `--pin`: the server's threads on the second core, this process (autocannon) on the first, so
  // that the two never take turns on one core mid-window (Linux, `taskset`).
  if (PIN) {
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(server.pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  }
  side.server = server;
  side.base = base;
  side.configFile = configFile;
  side.stopSampling = sampleRss(server.pid, side.rss, 200);
}

async function restart(side) {
  side.stopSampling();
  await stop(side.server, 10_000);
  await startServer(side, side.configFile, side.tmp);
}

/** Seeds one side through its own API: the same authors and posts on each, in the same order. */
async function seed(side) {
  const login = await api(side.base, 'POST', '/api/auth/login', null, { username: ADMIN.username, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  side.token = login.json.data.token;
  side.authorIds = await pool(AUTHORS, 20, (i) => create(side.base, side.token, 'author', { name: `Author ${i}`, bio: `Bio ${i}.` }));
  const postIds = await pool(POSTS, 20, (i) => create(side.base, side.token, 'post', postBody(i, side.authorIds)));
  side.sampleIds = postIds.filter((_, i) => i % (POSTS / 100) === 0);
  if (USE_PG) await pgQuery(side.databaseUrl, 'vacuum analyze');
}

/** One measured window on one side: requests per second and the server's CPU per request. */
async function window(side, scenario, seconds) {
  const opts = scenario.opts(side);
  side.rss.active = true;
  const cpu0 = cpuMicros(side.server.pid);
  const r = await autocannon({ connections: CONNECTIONS, ...opts, duration: seconds });
  const cpu1 = cpuMicros(side.server.pid);
  side.rss.active = false;
  if (r.non2xx || r.errors) throw new Error(`${scenario.name} on ${side.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, cpu: r.requests.total ? (cpu1 - cpu0) / r.requests.total : NaN };
}

/** A window on each side, one after the other in the given order or, with `--together`, at once. */
async function measureSides(scenario, seconds, order) {
  if (TOGETHER) {
    const got = await Promise.all(order.map((side) => window(side, scenario, seconds)));
    return Object.fromEntries(order.map((side, k) => [side.name, got[k]]));
  }
  const got = {};
  for (const side of order) got[side.name] = await window(side, scenario, seconds);
  return got;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round3 = (x) => Math.round(x * 1000) / 1000;

async function compare(scenario) {
  if (ONLY && !ONLY.has(scenario.name)) return;
  log(`scenario ${scenario.name}`);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % Math.ceil(ROUNDS / RESTARTS) === 0) {
      if (i > 0) for (const side of SIDES) await restart(side);
      await measureSides(scenario, 2, SIDES); // warm-up, as run.mjs: JIT, caches, pools
    }
    if (TOGETHER) {
      rounds.push(await measureSides(scenario, SECONDS, SIDES));
      continue;
    }
    // Rotate who goes first and alternate the direction, so a drift within a round favours no side.
    const rotated = SIDES.map((_, k) => SIDES[(k + Math.floor(i / 2)) % SIDES.length]);
    const order = i % 2 === 0 ? rotated : rotated.reverse();
    rounds.push(await measureSides(scenario, SECONDS, order));
  }
  const ratioOf = (name, pick) => rounds.map((r) => pick(r[name], r.base));
  const rpsRatio = (a, b) => a.rps / b.rps;
  const cpuRatio = (a, b) => b.cpu / a.cpu;
  const ratios = ratioOf('head', rpsRatio);
  const line = {
    scenario: scenario.name,
    dialect: DIALECT,
    rps_ratio: round3(median(ratios)),
    cpu_ratio: round3(median(ratioOf('head', cpuRatio))),
    ratio_range: [round3(Math.min(...ratios)), round3(Math.max(...ratios))],
    ...(CONTROL && {
      control_rps_ratio: round3(median(ratioOf('control', rpsRatio))),
      control_cpu_ratio: round3(median(ratioOf('control', cpuRatio))),
    }),
    ...Object.fromEntries(SIDES.map((s) => [`${s.name}_rps`, rounds.map((r) => Math.round(r[s.name].rps))])),
  };
  process.stdout.write(JSON.stringify(line) + '\n');
  const control = CONTROL
    ? `; control/base ${line.control_rps_ratio} (rounds ${ratioOf('control', rpsRatio).map(round3).join(', ')}), CPU ${line.control_cpu_ratio}`
    : '';
  log(
    `  ${scenario.name}: head/base req/s ${line.rps_ratio} (rounds ${ratios.map(round3).join(', ')}), CPU per request base/head ${line.cpu_ratio}${control}`,
  );
}

const LIST = '/api/documents/post?limit=20';
const READS = [
  ['list20', LIST],
  ['list20_expand', `${LIST}&expand=author`],
  ['filter_select', '/api/documents/post?filter[category]=guide&limit=20'],
  ['offset0', `${LIST}&offset=0`],
  ['offset9000', `${LIST}&offset=9000`],
];

function readScenarios(suffix) {
  const at = (side, path) => side.base + path;
  const scenarios = READS.map(([name, path]) => ({ name: name + suffix, opts: (side) => ({ url: at(side, path) }) }));
  scenarios.splice(3, 0, {
    name: `get_expand${suffix}`,
    opts: (side) => {
      let n = 0;
      return {
        url: side.base,
        requests: [
          { setupRequest: (req) => ({ ...req, path: `/api/documents/post/${side.sampleIds[n++ % side.sampleIds.length]}?expand=author` }) },
        ],
      };
    },
  });
  return scenarios;
}

function writeScenarios() {
  const creating = (name, connections) => ({
    name,
    opts: (side) => {
      side.createN ??= 0;
      return {
        url: side.base + '/api/documents/post',
        method: 'POST',
        connections,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${side.token}` },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                ...postBody(side.createN, side.authorIds),
                title: `Bench create ${side.createN++}`,
                _status: 'published',
              }),
            }),
          },
        ],
      };
    },
  });
  return [
    creating('create', CONNECTIONS),
    {
      name: 'update',
      opts: (side) => {
        side.patchN ??= 0;
        return {
          url: side.base,
          method: 'PATCH',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${side.token}` },
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                path: `/api/documents/post/${side.sampleIds[side.patchN % side.sampleIds.length]}`,
                body: JSON.stringify({ price: (side.patchN++ % 500) + 0.5 }),
              }),
            },
          ],
        };
      },
    },
    creating('create_1conn', 1),
  ];
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-compare-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  for (const side of SIDES) {
    side.rss = { active: false, maxKb: 0 };
    side.tmp = tmp;
    if (USE_PG) {
      const db = `vellum_compare_${randomBytes(5).toString('hex')}_${side.name}`;
      await pgAdmin(`create database ${db}`);
      cleanups.push(() => pgAdmin(`drop database if exists ${db} with (force)`));
      side.databaseUrl = PG_ADMIN_URL.replace(/\/test$/, `/${db}`);
    } else side.databaseUrl = `sqlite:${join(tmp, `${side.name}.db`)}`;
  }
  const cachedConfig = writeConfig(tmp, 'vellum.config.json', {});
  const uncachedConfig = writeConfig(tmp, 'vellum.uncached.json', { responseCache: false });

  for (const side of SIDES) {
    await startServer(side, cachedConfig, tmp);
    const t0 = Date.now();
    await seed(side);
    log(`${side.name} (${side.root}) seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const scenario of readScenarios('')) await compare(scenario);
  await compare({
    name: 'list20_expand_signed_in',
    opts: (side) => ({ url: `${side.base}${LIST}&expand=author`, headers: { authorization: `Bearer ${side.token}` } }),
  });

  for (const side of SIDES) {
    side.stopSampling();
    await stop(side.server, 10_000);
    await startServer(side, uncachedConfig, tmp);
  }
  for (const scenario of readScenarios('_uncached')) await compare(scenario);
  for (const scenario of writeScenarios()) await compare(scenario);

  const rss = Object.fromEntries(SIDES.map((s) => [`${s.name}_max_rss_mb`, Math.round(s.rss.maxKb / 1024)]));
  process.stdout.write(JSON.stringify({ scenario: 'summary', dialect: DIALECT, rounds: ROUNDS, seconds: SECONDS, ...rss }) + '\n');
  log(`max RSS while measured: ${JSON.stringify(rss)}`);
  for (const side of SIDES) if (rssKb(side.server.pid) === null) log(`${side.name} server is gone`);
}

const cleanup = guardRun(log, 60 * 60_000);
main().then(
  () => cleanup().then(() => process.exit(0)),
  (err) => {
    log(`failed: ${err.stack ?? err}`);
    return cleanup().then(() => process.exit(1));
  },
);
