// `npm run hostile` (`-- --pg` for PostgreSQL): a hostile run over every route. Starts the built
// server in a child process, seeds one of each thing a route can name (documents, a user, a
// token, a webhook, a media file), then sends every variant of bench/hostile/variants.mjs for
// every operation of the server's own OpenAPI document, as anonymous, viewer, writer and admin,
// plus forged Authorization headers. Requests go over keep-alive connections, one socket per
// client, so an answer that leaves a body unread shows up as the next request's hang.
//
// The run fails (exit 1) on any 500, any 5xx other than 501 NOT_IMPLEMENTED and 503
// SERVICE_UNAVAILABLE, any answer whose body is not the error body, any request unanswered
// within 15 s, and any error-level line in the server's log; it prints one JSON summary on stdout.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanups, createLog, freePort, guardRun, start, stop, waitFor } from './lib.mjs';
import { ADMIN, PG_ADMIN_URL, pgQuery } from './setup.mjs';
import { forgedAuthorizations, variantsOf } from './hostile/variants.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const USE_PG = process.argv.includes('--pg');
// The maintenance database the run creates its own in (the tests' override, as the suites use it).
const PG_URL = process.env.VELLUM_TEST_PG_URL ?? PG_ADMIN_URL;
// `--only TEXT`: just the operations whose path contains TEXT (to re-run one finding).
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const DIALECT = USE_PG ? 'postgres' : 'sqlite';
const CLIENTS = 8;
const TIMEOUT_MS = 15_000;
const BODY_LIMIT = 1_048_576;
const MAX_FILE = 1_000_000;
const log = createLog('hostile');

const config = {
  server: { bodyLimit: BODY_LIMIT },
  security: {
    adminUser: ADMIN,
    bcryptRounds: 4,
    // The run signs in again whenever a variant ended a session; the limiter is not under test here.
    rateLimit: { login: { windowMs: 60_000, max: 1_000_000 } },
  },
  media: { maxFileSize: MAX_FILE },
  oauth2: { enabled: true },
  realtime: { maxStreams: 4 },
  webhooks: { allowPrivateNetworks: false },
  schemas: [
    { name: 'author', fields: [{ name: 'name', type: 'string', required: true }] },
    {
      name: 'post',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'slug', type: 'slug', source: 'title' },
        { name: 'body', type: 'richtext' },
        { name: 'price', type: 'number', indexed: true },
        { name: 'published', type: 'datetime' },
        { name: 'author', type: 'reference', to: 'author' },
        { name: 'cover', type: 'image' },
        { name: 'tags', type: 'array', of: { type: 'string' } },
      ],
    },
  ],
};

/** One client: a keep-alive agent with one socket, so requests follow each other on one connection. */
function client(base) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let previous = '(first)';
  const send = (v) =>
    new Promise((resolve) => {
      const url = new URL(base + v.path);
      const body = v.body === undefined ? undefined : Buffer.isBuffer(v.body) ? v.body : Buffer.from(v.body);
      const headers = { ...v.headers };
      if (body) headers['content-length'] = String(body.length);
      let done = false;
      const finish = (r) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({ ...r, after: previous });
        previous = `${v.method} ${v.path.slice(0, 80)} [${v.label}]`;
      };
      const req = httpRequest(
        { agent, method: v.method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers },
        (res) => {
          if (String(res.headers['content-type']).startsWith('text/event-stream')) {
            res.destroy();
            return finish({ status: res.statusCode, body: '' });
          }
          const chunks = [];
          res.on('data', (c) => chunks.length < 64 && chunks.push(c));
          res.on('end', () =>
            finish({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', (e) => finish({ status: res.statusCode, error: e.code ?? e.message }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish({ hang: true });
      }, TIMEOUT_MS);
      // The server may answer and close before reading a large body: a reset while writing is an
      // acceptable end of such a request, not a fault (the answer, if any, was already read).
      req.on('error', (e) => finish({ error: e.code ?? e.message }));
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

async function json(base, method, path, token, body) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Signs in (and creates the account first when it is gone); answers the token. */
async function signIn(base, adminToken, who) {
  let res = await json(base, 'POST', '/api/auth/login', null, { username: who.username, password: who.password });
  if (res.status !== 200 && adminToken) {
    who.username = `${who.role}_${randomBytes(3).toString('hex')}`;
    const made = await json(base, 'POST', '/api/users', adminToken, {
      username: who.username,
      email: `${who.username}@example.com`,
      password: who.password,
      role: who.role,
    });
    if (made.status !== 201) throw new Error(`creating ${who.role}: ${made.status} ${JSON.stringify(made.json)}`);
    who.id = made.json.data.id;
    res = await json(base, 'POST', '/api/auth/login', null, { username: who.username, password: who.password });
  }
  if (res.status !== 200) throw new Error(`login ${who.username}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data.token;
}

/** The things routes name, created once: answers fill(name) for path parameters. */
async function seed(base, token, users) {
  const created = async (path, body, pick = (d) => d._id ?? d.id) => {
    const r = await json(base, 'POST', path, token, body);
    if (r.status !== 201) throw new Error(`seeding ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return pick(r.json.data);
  };
  const author = await created('/api/documents/author', { name: 'Hostile author', _status: 'published' });
  const post = await created('/api/documents/post', { title: 'Hostile post', author, _status: 'published' });
  await json(base, 'PATCH', `/api/documents/post/${post}`, token, { title: 'Hostile post, revised' });
  const apiToken = await created('/api/tokens', { name: 'hostile', permissions: ['content:read'] });
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], {
      type: 'image/png',
    }),
    'seed.png',
  );
  const up = await fetch(`${base}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (up.status !== 201) throw new Error(`seeding media: ${up.status} ${await up.text()}`);
  const media = (await up.json()).data;
  const values = {
    type: 'post',
    id: post,
    rev: '1',
    userId: users.viewer.id,
    username: users.viewer.username,
    email: `${users.viewer.username}@example.com`,
    key: media.key ?? media.url?.split('/files/')[1],
    credentialId: randomBytes(16).toString('base64url'),
    deliveryId: '1',
  };
  return { values, media: media._id ?? media.id, apiToken };
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-hostile-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  let databaseUrl = `sqlite:${join(tmp, 'hostile.db')}`;
  if (USE_PG) {
    const name = `vellum_hostile_${randomBytes(6).toString('hex')}`;
    await pgQuery(PG_URL, `create database ${name}`);
    cleanups.push(() => pgQuery(PG_URL, `drop database if exists ${name} with (force)`));
    databaseUrl = PG_URL.replace(/\/[^/]*$/, `/${name}`);
  }
  const configFile = join(tmp, 'vellum.config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start([BIN, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: tmp,
    env: { ...process.env, DATABASE_URL: databaseUrl, MEDIA_DIR: join(tmp, 'media'), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stop(server, 10_000));
  // Error-level lines in the server's log: a refusal is logged at info; an error line is a fault.
  const errorLines = [];
  let pending = '';
  const scan = (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      try {
        const entry = JSON.parse(line);
        if (entry.level >= 50) errorLines.push(line.slice(0, 2000));
      } catch {
        /* not a log line */
      }
    }
  };
  server.stdout.on('data', scan);
  server.stderr.on('data', (d) => process.stderr.write(d));
  await waitFor(`${base}/api/health`, server);
  log(`server up on ${base} (${DIALECT})`);

  const users = {
    admin: { username: ADMIN.username, password: ADMIN.password, role: 'admin' },
    viewer: { username: 'hostile_viewer', password: 'viewer-password-1', role: 'viewer' },
    writer: { username: 'hostile_writer', password: 'writer-password-1', role: 'writer' },
  };
  const tokens = { anonymous: undefined };
  tokens.admin = await signIn(base, undefined, users.admin);
  for (const who of ['viewer', 'writer']) tokens[who] = await signIn(base, tokens.admin, users[who]);
  const seeded = await seed(base, tokens.admin, users);
  const fill = (name) => seeded.values[name];

  const spec = (await json(base, 'GET', '/api/openapi.json')).json;
  const ops = [];
  for (const [template, methods] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(methods))
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method) && (!ONLY || template.includes(ONLY)))
        ops.push({ method, template, ...op });
  log(`${ops.length} operations`);

  const clients = Array.from({ length: CLIENTS }, () => client(base));
  const counts = {};
  const faults = new Map();
  const hangs = [];
  let total = 0;
  const record = (v, who, r) => {
    total++;
    if (r.hang) return hangs.push({ request: `${who} ${v.method} ${v.path.slice(0, 100)} [${v.label}]`, after: r.after });
    if (r.status === undefined) return; // reset while sending a body the server refused early
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    let fault;
    if (r.status >= 500) {
      const code = /"code":"(\w+)"/.exec(r.body ?? '')?.[1];
      const allowed = (r.status === 501 && code === 'NOT_IMPLEMENTED') || (r.status === 503 && code === 'SERVICE_UNAVAILABLE');
      if (!allowed) fault = `${r.status} ${code ?? ''}`;
    } else if (r.status >= 400 && !/"error"\s*:/.test(r.body ?? '') && !/text\/html/.test(r.type ?? '')) {
      fault = `${r.status} without the error body`;
    }
    if (fault) {
      const key = `${fault} ${v.method} ${v.template ?? ''}${v.path.split('?')[0].slice(0, 60)} [${v.label}]`;
      if (!faults.has(key)) faults.set(key, { who, body: (r.body ?? '').slice(0, 300) });
    }
  };

  const started = performance.now();
  for (const [i, op] of ops.entries()) {
    // Variants may end a session (logout, password change) or remove an account: sign in again.
    for (const who of ['admin', 'viewer', 'writer'])
      if ((await json(base, 'GET', '/api/auth/me', tokens[who])).status !== 200) tokens[who] = await signIn(base, tokens.admin, users[who]);
    const variants = variantsOf(op, { fill, bodyLimit: BODY_LIMIT, maxFileSize: MAX_FILE });
    const jobs = [];
    for (const who of Object.keys(tokens)) {
      // An admin's DELETE of the seeded things would take them from the routes that follow.
      const own = op.method === 'delete' && who === 'admin' ? variants.filter((v) => v.label !== 'plain') : variants;
      for (const v of own)
        jobs.push([who, { ...v, headers: tokens[who] ? { authorization: `Bearer ${tokens[who]}`, ...v.headers } : v.headers }]);
    }
    for (const [label, auth] of forgedAuthorizations(tokens.viewer))
      jobs.push(['forged', { ...variants[0], label: `auth ${label}`, headers: { ...variants[0].headers, authorization: auth } }]);
    let next = 0;
    await Promise.all(
      clients.map(async (c) => {
        while (next < jobs.length) {
          const [who, v] = jobs[next++];
          record(v, who, await c.send(v));
        }
      }),
    );
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) during ${op.method} ${op.template}`);
    log(`${i + 1}/${ops.length} ${op.method.toUpperCase()} ${op.template}: ${jobs.length} requests`);
  }
  for (const c of clients) c.close();
  // A last request on a fresh connection: the server still answers.
  const alive = (await json(base, 'GET', '/api/health')).status === 200;
  await new Promise((r) => setTimeout(r, 500)); // the last log lines
  const summary = {
    scenario: 'hostile',
    dialect: DIALECT,
    operations: ops.length,
    requests: total,
    seconds: Math.round((performance.now() - started) / 1000),
    statuses: counts,
    faults: [...faults].map(([k, v]) => ({ fault: k, ...v })),
    hangs,
    // One line per distinct message: the first of each kind.
    errorLogLines: [...new Map(errorLines.map((l) => [/"message":"([^"]*)"/.exec(l)?.[1] ?? l, l])).values()].slice(0, 20),
    errorLogLineCount: errorLines.length,
    alive,
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  log(`${total} requests: ${faults.size} faults, ${hangs.length} hangs, ${errorLines.length} error log lines`);
  if (faults.size || hangs.length || errorLines.length || !alive) process.exitCode = 1;
}

const cleanup = guardRun(log, 30 * 60_000);
main()
  .catch((err) => {
    log(err.stack ?? String(err));
    process.exitCode = 1;
  })
  .finally(cleanup);
