// Vellum webhook delivery benchmark: `npm run bench:webhooks` (SQLite) or `npm run bench:webhooks -- --pg`.
// Starts the built server in a child process on 127.0.0.1 with its delivery worker, a receiver in
// this process (answers 204 at once), creates one webhook, then queues N deliveries as the outbox
// does (one transaction) and times how long until every one has succeeded: events per second
// delivered end to end (claim, sign, POST, record). One JSON line per run on stdout; progress on stderr.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cleanups, createLog, freePort, guardRun, npmStartNodeFlags, sleep, start, stop, waitFor } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const SERVER = join(ROOT, 'packages/server/dist');
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const USE_PG = process.argv.includes('--pg');
const DIALECT = USE_PG ? 'postgres' : 'sqlite';
const ADMIN = { username: 'admin', password: 'bench-password-1', email: 'admin@example.com' };
const RUNS = [1_000, 5_000];
const WATCHDOG_MS = 5 * 60_000;

const log = createLog('bench:webhooks');
const cleanup = guardRun(log, WATCHDOG_MS);

async function main() {
  const { openDatabase } = await import(join(SERVER, 'storage/database.js'));
  const { inTransaction } = await import(join(SERVER, 'storage/connection.js'));
  const { insertDelivery } = await import(join(SERVER, 'storage/webhook-deliveries-store.js'));
  const { uuidv7 } = await import(join(SERVER, 'domain/shared/ids.js'));

  // 1. The receiver: counts requests, answers 204.
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => receiver.close(r)));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

  // 2. A database and the server.
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-webhooks-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  let databaseUrl = `sqlite:${join(tmp, 'bench.db')}`;
  if (USE_PG) {
    const name = `vellum_bench_wh_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
  }
  writeFileSync(
    join(tmp, 'vellum.config.json'),
    JSON.stringify({ security: { adminUser: ADMIN }, webhooks: { allowPrivateNetworks: true }, server: { logLevel: 'warn' } }),
  );
  const port = await freePort();
  const child = start([...npmStartNodeFlags(), BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: tmp,
    env: { ...process.env, DATABASE_URL: databaseUrl, HOME: tmp },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(() => stop(child, 5000));
  const api = `http://127.0.0.1:${port}/api`;
  await waitFor(`${api}/health`, child);

  // 3. One webhook, created through the API.
  const login = await (
    await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    })
  ).json();
  const created = await (
    await fetch(`${api}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.data.token}` },
      body: JSON.stringify({ name: 'Bench', url: receiverUrl, events: ['*'] }),
    })
  ).json();
  const webhookId = created.data.webhook.id;

  // 4. Each run: N pending rows in one transaction, then wait until all succeeded.
  const database = await openDatabase(databaseUrl);
  cleanups.push(() => database.close());
  const succeeded = async () =>
    Number(
      (
        await database.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'succeeded')
          .executeTakeFirstOrThrow()
      ).n,
    );
  for (const n of RUNS) {
    const before = await succeeded();
    const receivedBefore = received;
    const now = new Date().toISOString();
    await inTransaction(database, async (conn) => {
      for (let i = 0; i < n; i++) {
        const id = uuidv7();
        const payload = JSON.stringify({ id, type: 'document.updated', timestamp: now, data: { _id: `doc-${i}`, title: `Post ${i}` } });
        await insertDelivery(conn, {
          id,
          webhookId,
          eventId: id,
          eventType: 'document.updated',
          payload,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          claimedUntil: null,
          lastStatusCode: null,
          lastDurationMs: null,
          lastError: null,
          createdAt: now,
          deliveredAt: null,
        });
      }
    });
    const t0 = performance.now();
    while ((await succeeded()) - before < n) await sleep(20);
    const seconds = (performance.now() - t0) / 1000;
    process.stdout.write(
      JSON.stringify({
        scenario: 'webhooks_deliver',
        dialect: DIALECT,
        events: n,
        received: received - receivedBefore,
        seconds: Math.round(seconds * 100) / 100,
        events_per_s: Math.round(n / seconds),
      }) + '\n',
    );
  }
}

main()
  .catch((err) => {
    log(err.stack ?? String(err));
    process.exitCode = 1;
  })
  .finally(() => cleanup());
