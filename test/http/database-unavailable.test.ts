import BetterSqlite3 from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * A database that cannot answer (docs/api.md, "Errors"): the request gets 503
 * `SERVICE_UNAVAILABLE` with `Retry-After` soon, never hangs and never says 500; once the
 * database answers again, so does the service, without a restart.
 */

let t: TestApp;
let admin: string;

const list = () => t.request({ method: 'GET', url: '/api/documents/post', token: admin });
const create = (title: string) => t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title } });
const ready = () => t.request({ method: 'GET', url: '/api/ready' });
const health = () => t.request({ method: 'GET', url: '/api/health' });

/** `GET /ready` of a node whose database and file store answer (no Redis here). */
const READY = { data: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } };

function expectUnavailable(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.json().error.retryAfter).toBe(Number(res.headers['retry-after']));
}

/**
 * Connections the database reset while it was away can still sit idle in the pool until the event
 * loop reads the reset; in-process requests may run before it does. A request that meets one
 * answers 503 and the pool drops it, so after at most the pool's 10 the service answers.
 */
async function expectReadyAgain(): Promise<void> {
  let res = await ready();
  for (let attempt = 0; attempt < 10 && res.statusCode !== 200; attempt++) {
    expectUnavailable(res);
    res = await ready();
  }
  expect(res.json()).toEqual(READY);
}

async function expectServing(): Promise<void> {
  const created = await create(`Post ${Math.random()}`);
  expect(created.statusCode, created.body).toBe(201);
  expect((await list()).statusCode).toBe(200);
  expect((await ready()).json()).toEqual(READY);
}

if (dialect === 'postgres') {
  describe('PostgreSQL behind a proxy that goes silent or refuses', () => {
    let proxy: TcpProxy;

    beforeAll(async () => {
      proxy = await startTcpProxy();
      t = await startTestApp(
        {
          // Short timeouts keep the test quick; the defaults are a few seconds.
          database: { connectTimeoutMs: 500, statementTimeoutMs: 500 },
          documents: { responseCache: false },
          schemas: TEST_SCHEMAS,
        },
        { databaseUrl: (url) => proxy.via(url) },
      );
      admin = await t.login(ADMIN.username, ADMIN.password);
    });
    afterAll(async () => {
      await proxy.setMode('forward');
      await t?.close();
      await proxy.close();
    });

    it('answers through the proxy while it forwards', async () => {
      await expectServing();
    });

    it('a silent database: reads, writes and /ready answer 503 with Retry-After instead of hanging; /health stays 200', async () => {
      await proxy.setMode('silent');
      expectUnavailable(await list());
      expectUnavailable(await create('Lost in the silence'));
      const notReady = await ready();
      expectUnavailable(notReady);
      // The answer names the dependency that failed; the file store still answered.
      expect(notReady.json().error.details).toEqual([{ field: 'database', message: expect.any(String) }]);
      expect((await health()).statusCode).toBe(200);
      // More requests than the pool has connections: the ones waiting for a connection time out too.
      const many = await Promise.all(Array.from({ length: 15 }, () => list()));
      many.forEach(expectUnavailable);
    });

    it('answers again once the database does, without a restart', async () => {
      await proxy.setMode('forward');
      await expectServing();
    });

    it('a database that refuses connections: 503 with Retry-After, not 500', async () => {
      await proxy.setMode('refuse');
      expectUnavailable(await list());
      expectUnavailable(await create('Refused'));
      expectUnavailable(await ready());
      expect((await health()).statusCode).toBe(200);
    });

    it('answers again once the database accepts connections, without a restart', async () => {
      await proxy.setMode('forward');
      await expectReadyAgain();
      await expectServing();
      const titles = (await list()).json().data.map((d: { title: string }) => d.title);
      expect(titles).not.toContain('Refused');
    });
  });
} else {
  describe('SQLite locked by another connection', () => {
    let other: BetterSqlite3.Database;

    beforeAll(async () => {
      t = await startTestApp({ database: { busyTimeoutMs: 200 }, documents: { responseCache: false }, schemas: TEST_SCHEMAS });
      admin = await t.login(ADMIN.username, ADMIN.password);
      other = new BetterSqlite3(t.db.url.slice('sqlite:'.length));
    });
    afterAll(async () => {
      other?.close();
      await t?.close();
    });

    it('writes answer 503 with Retry-After after busyTimeoutMs, not 500; reads and /ready still answer', async () => {
      await expectServing();
      other.exec('begin immediate');
      other.exec("insert into instance (key, value) values ('test-lock', 'held')");
      try {
        expectUnavailable(await create('Blocked'));
        // Writes that share one group commit are all refused, none of them stored.
        const batch = await Promise.all(Array.from({ length: 5 }, (_, i) => create(`Blocked ${i}`)));
        batch.forEach(expectUnavailable);
        // WAL: readers are not blocked by the writer.
        expect((await list()).statusCode).toBe(200);
        expect((await ready()).statusCode).toBe(200);
      } finally {
        other.exec('rollback');
      }
    });

    it('answers writes again once the lock is released, and stored none of the refused ones', async () => {
      await expectServing();
      const titles = (await list()).json().data.map((d: { title: string }) => d.title);
      expect(titles.some((title: string) => title.startsWith('Blocked'))).toBe(false);
    });
  });
}
