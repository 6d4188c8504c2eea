import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { insertUser } from '../../packages/server/src/domain/identity/insert-user.js';
import { ADMIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Log levels of failures (docs/api.md, "Errors"): a refusal the API expects to make (4xx, 501) is
 * one `info` line without a stack; only a server failure (5xx) is an `error` line with the stack
 * and the request id.
 */

interface LogLine {
  level: number;
  reqId?: string;
  msg?: string;
  status?: number;
  code?: string;
  err?: { stack?: string; message?: string };
}

const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-log-'));
let db: TestDatabase;
let app: App;
const lines: LogLine[] = [];
let admin: string;
let viewer: string;

async function login(username: string, password: string): Promise<string> {
  const res = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

beforeAll(async () => {
  db = await createTestDatabase();
  const config = resolveConfig(
    {
      database: { url: db.url },
      security: { bcryptRounds: 4, adminUser: ADMIN },
      schemas: TEST_SCHEMAS,
      media: { dir: mediaDir },
      // One open event stream per node, so the second is refused.
      realtime: { maxStreams: 1 },
    },
    {},
  );
  app = await createApp(config, { logger: { level: 'debug', stream: { write: (line) => void lines.push(JSON.parse(line)) } } });
  admin = await login(ADMIN.username, ADMIN.password);
  await insertUser(app.services, app.services.database, {
    username: 'logviewer',
    email: 'logviewer@example.com',
    password: 'viewer-password-1',
    role: 'viewer',
    permissions: [],
  });
  viewer = await login('logviewer', 'viewer-password-1');
});

afterAll(async () => {
  await app?.server.close();
  await db?.drop();
  rmSync(mediaDir, { recursive: true, force: true });
});

const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

describe('expected refusals', () => {
  it.each([
    ['404', { method: 'GET', url: '/api/nosuch' }, 404, 'NOT_FOUND'],
    ['401', { method: 'GET', url: '/api/auth/me' }, 401, 'UNAUTHORIZED'],
    ['403', { method: 'GET', url: '/api/users', as: 'viewer' }, 403, 'FORBIDDEN'],
    ['422', { method: 'POST', url: '/api/documents/post', payload: { title: 5 }, as: 'admin' }, 422, 'VALIDATION_ERROR'],
    ['501', { method: 'GET', url: '/api/tokens/some-id', as: 'admin' }, 501, 'NOT_IMPLEMENTED'],
  ] as const)('a %s is one info line with its code and no stack', async (name, req, status, code) => {
    const reqId = `log-${name}`;
    const token = 'as' in req ? (req.as === 'admin' ? admin : viewer) : undefined;
    const res = await app.server.inject({
      method: req.method,
      url: req.url,
      payload: 'payload' in req ? req.payload : undefined,
      headers: { 'x-request-id': reqId, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    expect(res.statusCode, res.body).toBe(status);
    const mine = linesOf(reqId);
    expect(mine.length, JSON.stringify(mine)).toBeGreaterThan(0);
    for (const line of mine) {
      expect(line.level, JSON.stringify(line)).toBeLessThanOrEqual(30);
      expect(line.err?.stack, JSON.stringify(line)).toBeUndefined();
    }
    expect(mine.find((l) => l.level === 30 && l.status === status)?.code, JSON.stringify(mine)).toBe(code);
  });
});

describe('refusals of a limit the node keeps', () => {
  it('a stream past realtime.maxStreams is a 503 logged as a refusal: one info line with its code, no stack', async () => {
    // The open stream never ends, so it goes over a real socket (inject would wait for its end).
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.server.address() as AddressInfo;
    const abort = new AbortController();
    const open = await fetch(`http://127.0.0.1:${port}/api/events`, {
      headers: { authorization: `Bearer ${admin}` },
      signal: abort.signal,
    });
    try {
      expect(open.status).toBe(200);
      const reqId = 'log-max-streams';
      const res = await app.server.inject({
        method: 'GET',
        url: '/api/events',
        headers: { 'x-request-id': reqId, authorization: `Bearer ${admin}` },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
      const mine = linesOf(reqId);
      for (const line of mine) {
        expect(line.level, JSON.stringify(line)).toBeLessThanOrEqual(30);
        expect(line.err?.stack, JSON.stringify(line)).toBeUndefined();
      }
      expect(mine.find((l) => l.level === 30 && l.status === 503)?.code, JSON.stringify(mine)).toBe('SERVICE_UNAVAILABLE');
    } finally {
      abort.abort();
      await open.body?.cancel().catch(() => undefined);
    }
  });
});

describe('server failures', () => {
  it('a 5xx is an error line with the stack and the request id', async () => {
    // The database pulled out from under the running app: the next query fails inside the server.
    await app.services.database.close();
    const reqId = 'log-5xx';
    const res = await app.server.inject({ method: 'GET', url: '/api/documents/post', headers: { 'x-request-id': reqId } });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
    const errorLines = linesOf(reqId).filter((l) => l.level === 50);
    expect(errorLines, JSON.stringify(linesOf(reqId))).toHaveLength(1);
    expect(errorLines[0].err?.stack).toMatch(/\n\s+at /);
  });
});
