import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, injectRequests } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// On several nodes a write answers once its changes have been handed to the channel, so a read
// that follows on another node finds it (docs/operations.md, "Several nodes"). Between the node
// and Redis sits a proxy of this suite that holds the node's bytes to Redis back for a while and
// records what it passed on; a subscriber of the suite's own, connected straight to Redis, hears
// what the node published. The assertions are about order (had the proxy passed the PUBLISH on
// to Redis when the caller got its answer), never about durations. (Whether Redis then writes to
// its subscribers or to the publisher first is its own affair: within a millisecond either way.)

/** Holds each chunk from the node to Redis back for `delayMs` (in order); Redis's answers pass at once. */
async function startDelayingProxy(
  targetPort: number,
): Promise<{ port: number; delayMs: number; passed: string[]; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const proxy = { port: 0, delayMs: 0, passed: [] as string[], close: async () => {} };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    let queue = Promise.resolve();
    client.on('data', (chunk) => {
      const delay = proxy.delayMs;
      queue = queue
        .then(() => new Promise((r) => setTimeout(r, delay)))
        .then(() => {
          proxy.passed.push(chunk.toString('latin1'));
          upstream.write(chunk);
        });
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as { port: number }).port;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

const channel = `vellum_t_${randomBytes(4).toString('hex')}`;
let redis: RedisServer;
let proxy: Awaited<ReturnType<typeof startDelayingProxy>>;
let db: TestDatabase;
let app: App;
let subscriber: Redis;
let token: string;
/** What the subscriber has heard on the channel so far. */
const heard: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  proxy = await startDelayingProxy(Number(new URL(redis.url).port));
  db = await createTestDatabase();
  const config = resolveConfig(
    {
      database: { url: db.url },
      schemas: TEST_SCHEMAS,
      security: { bcryptRounds: 4, adminUser: ADMIN },
      webhooks: { worker: false },
      redis: { url: `redis://127.0.0.1:${proxy.port}` },
      realtime: { fanout: 'redis', channel },
    },
    {},
  );
  app = await createApp(config);
  subscriber = new Redis(redis.url);
  subscriber.on('message', (_channel: string, message: string) => void heard.push(message));
  await subscriber.subscribe(channel);
  token = await injectRequests(app).login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  subscriber?.disconnect();
  await app?.close();
  await proxy?.close();
  await redis?.close();
  await db?.drop();
});

/** Creates a post; answers its id, and whether the proxy had passed its change on to Redis when the answer came. */
async function createAndCheck(title: string): Promise<{ id: string; sentFirst: boolean }> {
  const res = await app.server.inject({
    method: 'POST',
    url: '/api/documents/post',
    headers: { authorization: `Bearer ${token}` },
    payload: { title, _status: 'published' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data._id as string;
  return { id, sentFirst: proxy.passed.some((chunk) => /publish/i.test(chunk) && chunk.includes(id)) };
}

describe('a write on several nodes answers once its changes are on their way', () => {
  it('the other nodes have been sent the change before the writer hears "created", though the way to Redis is slow', async () => {
    proxy.delayMs = 40;
    for (let round = 0; round < 3; round++) {
      const { id, sentFirst } = await createAndCheck(`Sent first ${round}`);
      expect(sentFirst, `round ${round}: ${id} was answered before it was published`).toBe(true);
      await expect.poll(() => heard.some((m) => m.includes(id))).toBe(true);
    }
  });

  it('a channel that hangs does not hold writes: the answer comes first, the change follows', async () => {
    proxy.delayMs = 1_500;
    const { id, sentFirst } = await createAndCheck('Not held');
    expect(sentFirst).toBe(false);
    await expect.poll(() => heard.some((m) => m.includes(id)), { timeout: 10_000 }).toBe(true);
    proxy.delayMs = 0;
  });

  it('reads do not wait: a list is answered while the channel hangs', async () => {
    proxy.delayMs = 1_500;
    const passed = proxy.passed.length;
    const write = createAndCheck('Read beside');
    const list = await app.server.inject({
      method: 'GET',
      url: '/api/documents/post?limit=1',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.statusCode).toBe(200);
    // The list was answered while the write's change was still held back on its way to Redis.
    expect(proxy.passed.length).toBe(passed);
    await write;
    proxy.delayMs = 0;
  });
});
