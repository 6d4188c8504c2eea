import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { openStream } from '../helpers/event-stream.js';
import { postDocument } from '../helpers/post-document.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// Two nodes sharing rate-limit counters and the change bus through a redis-server of this suite's
// own, which the tests kill and start again (docs/api.md, "Rate limits"; docs/realtime.md,
// "Several nodes"): while Redis is away every node counts on its own and delivers its own events,
// each says so once per outage, and both go back to Redis when it returns.

interface LogLine {
  level: number;
  msg?: string;
}

interface Node {
  app: App;
  lines: LogLine[];
  /** The suite helpers' view of the node (requests, streams). */
  t: TestApp;
}

const WARN = 40;
const INFO = 30;
const RULE = { windowMs: 60_000, max: 3 };
const channel = `vellum_t_${randomBytes(4).toString('hex')}`;

let redis: RedisServer;
let db: TestDatabase;
let a: Node;
let b: Node;
let admin: string;

async function startNode(): Promise<Node> {
  const lines: LogLine[] = [];
  const config = resolveConfig(
    {
      database: { url: db.url },
      schemas: TEST_SCHEMAS,
      security: { bcryptRounds: 4, adminUser: ADMIN, rateLimit: { login: RULE } },
      webhooks: { worker: false },
      redis: { url: redis.url },
      realtime: { fanout: 'redis', channel },
    },
    {},
  );
  const app = await createApp(config, { logger: { level: 'info', stream: { write: (line) => void lines.push(JSON.parse(line)) } } });
  const request: TestApp['request'] = ({ token, ...rest }) =>
    app.server.inject({ ...rest, headers: { ...(rest.headers as object), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const t = { app, db, request } as TestApp;
  return { app, lines, t };
}

beforeAll(async () => {
  redis = await startRedisServer();
  db = await createTestDatabase();
  a = await startNode();
  b = await startNode();
  admin = await login(a, ADMIN.username, ADMIN.password, '10.20.255.1').then((res) => res.json().data.token as string);
});

afterAll(async () => {
  // Redis first: the nodes close without it as well, and it must not outlive a close that hangs.
  await redis?.close();
  await b?.app.close();
  await a?.app.close();
  await db?.drop();
});

function login(node: Node, username: string, password: string, ip: string) {
  return node.t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip });
}

/** The node's log lines of one area (`rate limits`, `realtime`) about Redis at one level. */
const said = (node: Node, area: string, level: number) =>
  node.lines.filter((l) => l.level === level && l.msg?.startsWith(`${area}:`) && l.msg.includes('Redis')).length;

/** Starts Redis again and waits until every node said it counts and fans out through it again. */
async function backInRedis(before: Map<Node, { counters: number; bus: number }>): Promise<void> {
  await redis.start();
  for (const [node, seen] of before) {
    await expect.poll(() => said(node, 'rate limits', INFO)).toBe(seen.counters + 1);
    await expect.poll(() => said(node, 'realtime', INFO)).toBe(seen.bus + 1);
  }
}

const infoCountsOf = (node: Node) => ({ counters: said(node, 'rate limits', INFO), bus: said(node, 'realtime', INFO) });
const infoCounts = () => new Map([a, b].map((node) => [node, infoCountsOf(node)]));

describe('rate limits while Redis is away', () => {
  it('sign-in answers 200 with the right password and 401 with a wrong one; each node still limits on its own', async () => {
    const before = infoCounts();
    await redis.stop();
    try {
      const ok = await login(a, ADMIN.username, ADMIN.password, '10.20.0.1');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.token).toEqual(expect.any(String));
      for (let i = 0; i < RULE.max; i++) expect((await login(a, 'nobody-away', 'wrong-password', '10.20.0.2')).statusCode).toBe(401);
      const spent = await login(a, 'nobody-away', 'wrong-password', '10.20.0.2');
      expect(spent.statusCode, spent.body).toBe(429);
      expect(spent.json().error.code).toBe('RATE_LIMITED');
      // The other node has counted none of those: while Redis is away the limit is per node.
      expect((await login(b, 'nobody-away', 'wrong-password', '10.20.0.2')).statusCode).toBe(401);
      expect((await login(b, ADMIN.username, ADMIN.password, '10.20.0.3')).statusCode).toBe(200);
      await backInRedis(before);
    } finally {
      await redis.start();
    }
  });

  it('one warning line per outage, one info line when Redis is back, and counting goes back to Redis', async () => {
    const client = new Redis(redis.url, { lazyConnect: true });
    try {
      for (const outage of [1, 2]) {
        const warned = said(a, 'rate limits', WARN);
        const before = infoCounts();
        await redis.stop();
        for (let i = 0; i < 5; i++) {
          expect((await login(a, ADMIN.username, ADMIN.password, `10.21.${outage}.${i}`)).statusCode).toBe(200);
          expect((await login(a, `nobody-${outage}-${i}`, 'wrong-password', `10.21.${outage}.${i}`)).statusCode).toBe(401);
        }
        expect(said(a, 'rate limits', WARN)).toBe(warned + 1);
        await backInRedis(before);
        expect(said(a, 'rate limits', WARN)).toBe(warned + 1);
        // A fresh Redis (nothing is saved) holds the counts made after it came back.
        const ip = `10.22.${outage}.1`;
        expect((await login(a, `nobody-back-${outage}`, 'wrong-password', ip)).statusCode).toBe(401);
        await client.connect();
        expect(await client.get(`vellum:rl:login:ip:${ip}`)).toBe('1');
        client.disconnect();
      }
    } finally {
      client.disconnect();
      await redis.start();
    }
  });
});

describe('a Redis that stops answering', () => {
  it('does not hold sign-in until it answers: the node counts on its own meanwhile and says so once', async () => {
    const warned = said(a, 'rate limits', WARN);
    const back = said(a, 'rate limits', INFO);
    redis.pause();
    try {
      const ok = await login(a, ADMIN.username, ADMIN.password, '10.24.0.1');
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await login(a, 'nobody-paused', 'wrong-password', '10.24.0.2')).statusCode).toBe(401);
      expect((await login(a, ADMIN.username, ADMIN.password, '10.24.0.3')).statusCode).toBe(200);
      expect(said(a, 'rate limits', WARN)).toBe(warned + 1);
    } finally {
      redis.resume();
    }
    await expect.poll(() => said(a, 'rate limits', INFO)).toBe(back + 1);
    expect(said(a, 'rate limits', WARN)).toBe(warned + 1);
  });
});

describe('the change bus while Redis is away', () => {
  it('each node delivers its own events to its own streams, warns once, and fans out again when Redis is back', async () => {
    const onA = await openStream(a.t, { token: admin });
    const onB = await openStream(b.t, { token: admin });
    try {
      const warned = [said(a, 'realtime', WARN), said(b, 'realtime', WARN)];
      const before = infoCounts();
      await redis.stop();
      const away = await postDocument(a.t, admin, 'post', { title: 'Written while Redis is away' });
      await expect.poll(() => onA.messages.some((m) => JSON.parse(m.data).subject?.id === away._id)).toBe(true);
      await postDocument(a.t, admin, 'post', { title: 'Another' });
      await expect.poll(() => onA.messages.length).toBe(2);
      await expect.poll(() => said(b, 'realtime', WARN)).toBe(warned[1] + 1);
      expect(said(a, 'realtime', WARN)).toBe(warned[0] + 1);

      await backInRedis(before);
      const back = await postDocument(a.t, admin, 'post', { title: 'Written after Redis is back' });
      await expect.poll(() => onB.messages.some((m) => JSON.parse(m.data).subject?.id === back._id)).toBe(true);
      await expect.poll(() => onA.messages.filter((m) => JSON.parse(m.data).subject?.id === back._id).length).toBe(1);
      expect(said(a, 'realtime', WARN)).toBe(warned[0] + 1);
      expect(said(b, 'realtime', WARN)).toBe(warned[1] + 1);
    } finally {
      onA.close();
      onB.close();
      await redis.start();
    }
  });
});

describe('starting while Redis is away', () => {
  it('a node starts, signs in and delivers its own events, says so once, and joins Redis when it comes', async () => {
    const before = infoCounts();
    await redis.stop();
    let c: Node | undefined;
    try {
      c = await startNode();
      before.set(c, infoCountsOf(c));
      expect(said(c, 'rate limits', WARN)).toBe(1);
      expect(said(c, 'realtime', WARN)).toBe(1);
      const ok = await login(c, ADMIN.username, ADMIN.password, '10.23.0.1');
      expect(ok.statusCode, ok.body).toBe(200);
      const onC = await openStream(c.t, { token: admin });
      try {
        const away = await postDocument(c.t, admin, 'post', { title: 'Written on a node that started without Redis' });
        await expect.poll(() => onC.messages.some((m) => JSON.parse(m.data).subject?.id === away._id)).toBe(true);
      } finally {
        onC.close();
      }

      await backInRedis(before);
      const onA = await openStream(a.t, { token: admin });
      try {
        const back = await postDocument(c.t, admin, 'post', { title: 'Written once Redis came' });
        await expect.poll(() => onA.messages.some((m) => JSON.parse(m.data).subject?.id === back._id)).toBe(true);
        expect(said(c, 'rate limits', WARN)).toBe(1);
        expect(said(c, 'realtime', WARN)).toBe(1);
      } finally {
        onA.close();
      }
    } finally {
      await redis.start();
      await c?.app.close();
    }
  });
});

describe('readiness while Redis is away', () => {
  const ready = async (node: Node) => {
    const res = await node.t.request({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { status: string; checks: Record<string, string> };
  };

  it('/ready reports Redis, and stays 200 ("degraded") while it is away: the node serves on its own', async () => {
    expect(await ready(a)).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });
    const before = infoCounts();
    await redis.stop();
    try {
      await expect.poll(async () => (await ready(a)).status).toBe('degraded');
      expect((await ready(a)).checks).toEqual({ database: 'ok', storage: 'ok', redis: 'unavailable' });
      await backInRedis(before);
      expect(await ready(a)).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });
    } finally {
      await redis.start();
    }
  });
});
