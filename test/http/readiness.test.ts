import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../../packages/server/src/media/storage/file-store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';

/**
 * `GET /ready` (docs/operations.md, "Readiness"): each dependency in the body; 503 naming the file
 * store when it fails or does not answer (the database's failures are in database-unavailable.test.ts,
 * Redis's in redis-outage.test.ts).
 */
let t: TestApp;
let files: FileStore;
beforeAll(async () => {
  t = await startTestApp();
  files = t.app.services.files;
});
afterAll(() => t?.close());

const withStat = (stat: FileStore['stat']) => {
  t.app.services.files = { ...files, kind: files.kind, stat } as FileStore;
};

describe('readiness', () => {
  it('answers each dependency: the database and the file store (no Redis configured: not listed)', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } });
  });

  it('a file store that fails: 503 with Retry-After, naming storage', async () => {
    withStat(() => Promise.reject(new Error('bucket gone')));
    try {
      const err = expectSpecError(await t.request({ method: 'GET', url: '/api/ready' }), 503, 'SERVICE_UNAVAILABLE');
      expect(err.details).toEqual([{ field: 'storage', message: 'not reachable' }]);
      expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    } finally {
      t.app.services.files = files;
    }
  });

  it('a file store that does not answer: 503 after the probe deadline (2 s), not a hung probe', async () => {
    withStat(() => new Promise(() => undefined));
    try {
      const started = Date.now();
      const err = expectSpecError(await t.request({ method: 'GET', url: '/api/ready' }), 503, 'SERVICE_UNAVAILABLE');
      expect(err.details).toEqual([{ field: 'storage', message: 'no answer within 2000 ms' }]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      t.app.services.files = files;
    }
    expect((await t.request({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });
});
