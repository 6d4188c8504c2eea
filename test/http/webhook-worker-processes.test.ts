import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../packages/server/src/storage/connection.js';
import { openDatabase, type Database } from '../../packages/server/src/storage/database.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { queueDelivery } from '../helpers/queue-delivery.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// The worker across processes (docs/webhooks.md, "Delivery"): `vellum serve` killed in the middle
// of an attempt, and two nodes on one database. Each test has a database of its own; the
// receiver is a real HTTP server on loopback.
let receiver: WebhookReceiver;
let db: TestDatabase | undefined;
let conn: Database | undefined;
let cwd: string | undefined;
const running: ServeProcess[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
afterEach(async () => {
  for (const p of running.splice(0)) await p.kill();
  await conn?.close();
  await db?.drop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  conn = db = cwd = undefined;
});

/** A working directory whose config points at a fresh database, with the admin and loopback delivery. */
async function setUp(webhooks: Record<string, unknown> = {}) {
  db = await createTestDatabase();
  cwd = mkdtempSync(join(tmpdir(), 'vellum-worker-'));
  const config = {
    database: { url: db.url },
    security: { adminUser: ADMIN, bcryptRounds: 4 },
    webhooks: { allowPrivateNetworks: true, ...webhooks },
  };
  writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify(config));
}

async function serve(env: Record<string, string> = {}) {
  const p = await startServe(cwd as string, env);
  running.push(p);
  return p;
}

/** Signs in as the admin on `p` and creates a hook on the receiver's `path`. */
async function createHook(p: ServeProcess, path: string): Promise<string> {
  const login = await fetch(`${p.api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const res = await fetch(`${p.api}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Nodes', url: receiver.url(path), events: ['*'] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { webhook: { id: string } } }).data.webhook.id;
}

/** The test's own connection to the database the processes use (opened after they migrated it). */
async function database(): Promise<Database> {
  conn ??= await openDatabase((db as TestDatabase).url);
  return conn;
}

async function row(id: string) {
  return (await database()).db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('a node killed in the middle of an attempt', () => {
  it('leaves the delivery claimed; once the claim runs out, the restarted node delivers it', async () => {
    await setUp({ timeout: '30s' });
    const first = await serve();
    const hookId = await createHook(first, '/crash');
    // The receiver holds the first attempt open, so the node dies while it is in flight.
    receiver.answer((req, nth) => (req.path === '/crash' && nth === 0 ? 'hang' : { status: 204 }));
    const queued = await queueDelivery(await database(), hookId);
    await expect.poll(() => receiver.to('/crash').length).toBe(1);
    await first.kill();
    const claimed = await row(queued.id);
    expect(claimed).toMatchObject({ status: 'delivering', attempts: 1 });
    // Nothing delivers it while the claim holds; the lease (60 s) is made to run out instead of waited for.
    await (
      await database()
    ).db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', queued.id)
      .execute();
    await serve();
    await expect.poll(async () => (await row(queued.id)).status).toBe('succeeded');
    expect(await row(queued.id)).toMatchObject({ attempts: 2, last_status_code: 204 });
    // At least once: the receiver saw the event twice, under one webhook-id to drop the repeat by.
    expect(receiver.to('/crash').map((r) => r.headers['webhook-id'])).toEqual([queued.eventId, queued.eventId]);
  });

  it('delivers what was queued while no worker ran, once a node with the worker starts', async () => {
    await setUp();
    const apiOnly = await serve({ WEBHOOKS_WORKER: 'false' });
    const hookId = await createHook(apiOnly, '/later');
    const queued = await queueDelivery(await database(), hookId);
    await apiOnly.kill();
    expect(await row(queued.id)).toMatchObject({ status: 'pending', attempts: 0 });
    await serve();
    await expect.poll(async () => (await row(queued.id)).status).toBe('succeeded');
    expect(receiver.to('/later')).toHaveLength(1);
  });
});

describe('two nodes on one database', () => {
  it('deliver 200 queued events, each webhook-id exactly once', async () => {
    await setUp();
    const [a] = await Promise.all([serve(), serve()]);
    const hookId = await createHook(a, '/pair');
    receiver.answer(() => ({ status: 204 }));
    const conn = await database();
    const ids = new Set<string>();
    // One transaction: all 200 become visible at once, and both nodes' workers race for them.
    await inTransaction(conn, async (trx) => {
      for (let i = 0; i < 200; i++) ids.add((await queueDelivery(trx, hookId)).eventId);
    });
    const succeeded = async () =>
      Number(
        (
          await conn.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('status', '=', 'succeeded')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await expect.poll(succeeded, { timeout: 30_000 }).toBe(200);
    const got = receiver.to('/pair').map((r) => r.headers['webhook-id'] as string);
    expect(got).toHaveLength(200);
    expect(new Set(got)).toEqual(ids);
  });
});
