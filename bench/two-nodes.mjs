// Two nodes against one: `npm run bench:two-nodes` (PostgreSQL on 127.0.0.1:5432 and redis-server
// on PATH). Both setups run in the same process of this script, one after the other, each behind
// the same round-robin TCP proxy (one node: the proxy has one target), on a database of its own
// seeded alike, with Redis for rate limits and the change bus. Scenarios: `list20` (a cached list,
// signed in), `create` (a published post), and with two nodes `staleness`: a write on one node
// and, from its acknowledgement, reads of a cached list on the other until one shows it, 1 000
// times (the window in which the other node still serves the old list; 0 when the first read
// after the acknowledgement is fresh). One JSON line per setup and scenario on stdout.
// `--staleness-only` skips the throughput scenarios; `--fanout redis|postgres` sets
// `realtime.fanout` (default `auto`: PostgreSQL's LISTEN/NOTIFY).
//
// On a machine with few cores two nodes compete with each other, with PostgreSQL and with the load
// generator for the same CPUs: the figure says what a second process on the same machine buys,
// not what a second machine would.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cleanups, createLog, freePort, guardRun, npmStartNodeFlags, start, stop, waitFor } from './lib.mjs';
import { startRoundRobinProxy } from './round-robin-proxy.mjs';
import { ADMIN, api, create, PG_ADMIN_URL, pgAdmin, pool, postBody, writeConfig } from './setup.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const POSTS = 2_000;
const CONNECTIONS = 20;
const SECONDS = 8;
const log = createLog('bench:two-nodes');
const emit = (line) => process.stdout.write(JSON.stringify(line) + '\n');

async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  cleanups.push(() => child.kill('SIGKILL'));
  for (let i = 0; i < 50; i++) {
    const up = await new Promise((r) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
    });
    if (up) return `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start');
}

/** The round-robin proxy (one node: it has one target), closed with the rest on failure. */
async function proxy(ports) {
  const front = await startRoundRobinProxy(ports);
  cleanups.push(() => front.close());
  return front;
}

async function setup(name, nodes, redisUrl, tmp) {
  const db = `vellum_two_${randomBytes(4).toString('hex')}_${name}`;
  await pgAdmin(`create database ${db}`);
  cleanups.push(() => pgAdmin(`drop database if exists ${db} with (force)`).catch(() => undefined));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${db}`;
  const config = writeConfig(tmp, `${name}.json`, {});
  const fanout = process.argv[process.argv.indexOf('--fanout') + 1];
  if (process.argv.includes('--fanout'))
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), realtime: { fanout } }));
  const servers = [];
  for (let i = 0; i < nodes; i++) {
    const port = await freePort();
    const child = start([...npmStartNodeFlags(), BIN, 'serve', '--config', config, '--port', String(port), '--host', '127.0.0.1'], {
      cwd: tmp,
      env: { ...process.env, DATABASE_URL: url.toString(), REDIS_URL: redisUrl, LOG_LEVEL: 'warn', MEDIA_DIR: join(tmp, `${name}-media`) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`http://127.0.0.1:${port}/api/health`, child, 60_000);
    servers.push({ child, port });
  }
  const front = await proxy(servers.map((s) => s.port));
  const login = await api(front.base, 'POST', '/api/auth/login', null, { username: ADMIN.username, password: ADMIN.password });
  const token = login.json.data.token;
  const authors = await pool(20, 10, (i) => create(front.base, token, 'author', { name: `Author ${i}` }));
  await pool(POSTS, 20, (i) => create(front.base, token, 'post', postBody(i, authors)));
  return { front, servers, token, authors };
}

async function measure(name, s) {
  const auth = { authorization: `Bearer ${s.token}` };
  const list = { url: `${s.front.base}/api/documents/post?limit=20`, headers: auth };
  let n = 0;
  const make = {
    url: `${s.front.base}/api/documents/post`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...postBody(n, s.authors), title: `Bench ${n++}`, _status: 'published' }),
        }),
      },
    ],
  };
  for (const [scenario, opts] of [
    ['list20', list],
    ['create', make],
  ]) {
    await autocannon({ ...opts, connections: CONNECTIONS, duration: 2 });
    const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: SECONDS });
    const line = {
      setup: name,
      scenario,
      rps: Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    };
    log(JSON.stringify(line));
    emit(line);
  }
}

/**
 * The staleness window of a cached list across nodes: per round, a list on A (so it is cached), a
 * create on B, then from B's acknowledgement lists on A until one holds the new post. The window
 * is the time from the acknowledgement to the start of the first read that was fresh.
 */
async function staleness(s, rounds = 1000) {
  const [a, b] = s.servers.map((server) => `http://127.0.0.1:${server.port}`);
  const windows = [];
  let staleFirstReads = 0;
  for (let round = 0; round < rounds; round++) {
    await api(a, 'GET', '/api/documents/post?limit=5', s.token);
    const title = `Stale check ${round}`;
    const made = await api(b, 'POST', '/api/documents/post', s.token, { ...postBody(round, s.authors), title, _status: 'published' });
    if (made.status !== 201) throw new Error(`create answered ${made.status}`);
    const acknowledged = performance.now();
    for (let read = 0; ; read++) {
      const started = performance.now();
      const list = await api(a, 'GET', '/api/documents/post?limit=5', s.token);
      if (list.json.data.some((d) => d.title === title)) {
        windows.push(read === 0 ? 0 : started - acknowledged);
        if (read > 0) staleFirstReads++;
        break;
      }
      if (started - acknowledged > 5_000) throw new Error('a write on B never reached the list on A');
    }
  }
  windows.sort((x, y) => x - y);
  const at = (q) => windows[Math.min(windows.length - 1, Math.ceil(q * windows.length) - 1)];
  const line = {
    setup: 'two_nodes',
    scenario: 'staleness',
    rounds,
    stale_first_reads: staleFirstReads,
    p50_ms: +at(0.5).toFixed(2),
    p99_ms: +at(0.99).toFixed(2),
    max_ms: +windows[windows.length - 1].toFixed(2),
  };
  log(JSON.stringify(line));
  emit(line);
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-two-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const redisUrl = await startRedis();
  // `--two-first` runs the setups the other way round: this machine drifts between minutes.
  const setups = [
    ['one_node', 1],
    ['two_nodes', 2],
  ];
  if (process.argv.includes('--two-first')) setups.reverse();
  if (process.argv.includes('--staleness-only')) setups.splice(0, setups.length, ['two_nodes', 2]);
  for (const [name, nodes] of setups) {
    log(`setup ${name}: ${nodes} node(s), ${POSTS} posts`);
    const s = await setup(name, nodes, redisUrl, tmp);
    if (!process.argv.includes('--staleness-only')) await measure(name, s);
    if (nodes === 2) await staleness(s);
    await s.front.close();
    for (const server of s.servers) await stop(server.child, 2000);
  }
}

const cleanup = guardRun(log, 10 * 60_000);
main().then(cleanup, async (err) => {
  log(`error: ${err.stack ?? err.message}`);
  await cleanup();
  process.exitCode = 1;
});
