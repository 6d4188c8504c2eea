import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRoundRobinProxy } from '../../bench/round-robin-proxy.mjs';
import { createTestDatabase, type TestDatabase } from './database.js';
import type { JsonObject } from './json-object.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { s3MediaConfig, startS3Server } from './s3-server.js';
import { TEST_SCHEMAS } from './schemas.js';
import { startServe, type ServeProcess } from './serve-process.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  raw: Buffer;
  json(): JsonObject;
}

/**
 * Two `vellum serve` processes as one site (docs/operations.md): one PostgreSQL database, one
 * Redis (rate limits and the change bus), one S3 bucket (s3rver), behind a round-robin TCP proxy
 * (bench/round-robin-proxy.mjs, the one `npm run bench:two-nodes` uses). Every request through
 * `site` opens a connection of its own and the proxy alternates the node per connection, so
 * consecutive requests land on different nodes.
 */
export interface TwoNodes {
  /** `http://127.0.0.1:<proxy>/api`. */
  api: string;
  nodes: [ServeProcess, ServeProcess];
  /** The Redis both nodes share (stop and start it to test an outage). */
  redis: RedisServer;
  /** Which node (0 or 1) took each connection so far, in order. */
  routed: number[];
  /** Through the proxy: a new connection, the next node. */
  site(method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  /** Straight to one node. */
  on(
    node: 0 | 1,
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  close(): Promise<void>;
}

export async function startTwoNodes(config: Record<string, unknown> = {}): Promise<TwoNodes> {
  const db: TestDatabase = await createTestDatabase('postgres');
  const redis: RedisServer = await startRedisServer();
  const s3 = await startS3Server();
  const dir = mkdtempSync(join(tmpdir(), 'vellum-two-nodes-'));
  writeFileSync(
    join(dir, 'vellum.config.json'),
    JSON.stringify({
      schemas: TEST_SCHEMAS,
      media: s3MediaConfig(s3),
      realtime: { fanout: 'redis' },
      webhooks: { allowPrivateNetworks: true, retrySchedule: ['200ms'] },
      ...config,
      security: { bcryptRounds: 4, rateLimit: { login: { windowMs: 60_000, max: 3 } }, ...(config.security as object) },
    }),
  );
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    VELLUM_ADMIN_USERNAME: ADMIN.username,
    VELLUM_ADMIN_PASSWORD: ADMIN.password,
  };
  const nodes: ServeProcess[] = [];
  try {
    // One after the other: the first creates the schema and the admin, as a rolling start does.
    nodes.push(await startServe(dir, env));
    nodes.push(await startServe(dir, env));
    const front = await startRoundRobinProxy(nodes.map((n) => Number(new URL(n.api).port)));
    const api = `${front.base}/api`;
    return {
      api,
      nodes: nodes as [ServeProcess, ServeProcess],
      redis,
      routed: front.routed,
      site: (method, path, opts) => call(api, method, path, opts),
      on: (node, method, path, opts) => call(nodes[node].api, method, path, opts),
      async close() {
        await front.close();
        await Promise.all(nodes.map((n) => n.stop()));
        await s3.close();
        await redis.close();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    await s3.close();
    await redis.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** One request on a connection of its own (`agent: false`), so the proxy picks the next node. */
export function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(base + path);
  const payload = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(JSON.stringify(opts.body));
  const headers: Record<string, string | number> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (payload && !Buffer.isBuffer(opts.body)) headers['content-type'] = 'application/json';
  if (payload) headers['content-length'] = payload.length;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = raw.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, raw, json: () => JSON.parse(body) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
