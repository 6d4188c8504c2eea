import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueSchedules } from '../../packages/server/src/domain/schedules/run-schedules.js';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import { openStream } from '../helpers/event-stream.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { postDocument } from '../helpers/post-document.js';
import { scrape } from '../helpers/prometheus.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * `GET /api/metrics` (docs/operations.md, "Metrics"): the Prometheus text format, read by a
 * Prometheus parser; every test scrapes, makes requests, scrapes again and checks that the
 * numbers moved by exactly what it did. Who may scrape: the token, `settings:read`, nobody else.
 */
const TOKEN = 'scrape-token-0123456789abcdef';
const asScraper = { authorization: `Bearer ${TOKEN}` };

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);

let t: TestApp;
let admin: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());
useAdminApp(
  () =>
    startTestApp(
      {
        schemas: TEST_SCHEMAS,
        metrics: { token: TOKEN },
        webhooks: { worker: true, allowPrivateNetworks: true, timeout: '1s', retrySchedule: ['100ms'], disableAfterFailures: 5 },
      },
      { now },
    ),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('what is counted', () => {
  it('requests by route template, method and status, with a latency histogram; ids never become labels', async () => {
    const doc = await postDocument(t, admin, 'author', { name: 'Counted' });
    const read = { route: '/api/documents/:type/:id', method: 'GET', status: '200' };
    const missing = { route: '/api/documents/:type/:id', method: 'GET', status: '404' };
    const before = await scrape(t, asScraper);
    for (let i = 0; i < 3; i++)
      expect((await t.request({ method: 'GET', url: `/api/documents/author/${doc._id}`, token: admin })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/documents/author/no-such-id', token: admin })).statusCode).toBe(404);
    const after = await scrape(t, asScraper);

    expect(after.value('vellum_http_requests_total', read) - before.value('vellum_http_requests_total', read)).toBe(3);
    expect(after.value('vellum_http_requests_total', missing) - before.value('vellum_http_requests_total', missing)).toBe(1);
    const timed = { route: '/api/documents/:type/:id', method: 'GET' };
    expect(
      after.value('vellum_http_request_duration_seconds_count', timed) - before.value('vellum_http_request_duration_seconds_count', timed),
    ).toBe(4);
    expect(after.family('vellum_http_request_duration_seconds')?.type).toBe('histogram');
    expect(after.value('vellum_http_request_duration_seconds_bucket', { ...timed, le: '+Inf' })).toBe(
      after.value('vellum_http_request_duration_seconds_count', timed),
    );
    const routes = after.family('vellum_http_requests')!.samples.map((m) => m.labels.route ?? '');
    expect(routes.some((r) => r.includes(String(doc._id)) || r.includes('no-such-id'))).toBe(false);
  });

  it('a path no route matches is counted as "unmatched", not by its URL', async () => {
    const labels = { route: 'unmatched', method: 'GET', status: '404' };
    const before = await scrape(t, asScraper);
    expect((await t.request({ method: 'GET', url: '/api/no-such-thing/at-all' })).statusCode).toBe(404);
    const after = await scrape(t, asScraper);
    expect(after.value('vellum_http_requests_total', labels) - before.value('vellum_http_requests_total', labels)).toBe(1);
    expect(after.families.flatMap((f) => f.samples).some((m) => m.labels.route?.includes('no-such-thing'))).toBe(false);
  });

  it('response cache hits and misses', async () => {
    await postDocument(t, admin, 'author', { name: 'Cached' });
    const before = await scrape(t, asScraper);
    const url = `/api/documents/author?limit=7`;
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url, token: admin })).statusCode).toBe(200);
    const after = await scrape(t, asScraper);
    const moved = (result: string) =>
      after.value('vellum_response_cache_requests_total', { result }) - before.value('vellum_response_cache_requests_total', { result });
    expect(moved('miss')).toBe(1);
    expect(moved('hit')).toBe(2);
  });

  it('the database: the pool on PostgreSQL, the writer batches and queue on SQLite', async () => {
    const before = await scrape(t, asScraper);
    await Promise.all(Array.from({ length: 5 }, (_, i) => postDocument(t, admin, 'author', { name: `Batch ${i}` })));
    const after = await scrape(t, asScraper);
    if (dialect === 'postgres') {
      const states = after.family('vellum_db_pool_connections')!.samples.map((m) => m.labels.state);
      expect(states.sort()).toEqual(['idle', 'in_use', 'waiting']);
      const open =
        after.value('vellum_db_pool_connections', { state: 'in_use' }) + after.value('vellum_db_pool_connections', { state: 'idle' });
      expect(open).toBeGreaterThanOrEqual(1);
      expect(after.value('vellum_sqlite_write_batch_size_count')).toBe(0);
    } else {
      // Five writes (and the audit and outbox rows they carry) committed in one or more batches.
      const batches = after.value('vellum_sqlite_write_batch_size_count') - before.value('vellum_sqlite_write_batch_size_count');
      expect(batches).toBeGreaterThanOrEqual(1);
      expect(batches).toBeLessThanOrEqual(5);
      expect(after.value('vellum_sqlite_write_queue')).toBe(0);
      expect(after.family('vellum_db_pool_connections')?.samples ?? []).toEqual([]);
    }
  });

  /** A hook for `document.created` on a receiver path of its own; answers its id. */
  async function hookOn(path: string): Promise<string> {
    const hook = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: { name: `Hook ${path}`, url: receiver.url(path), events: ['document.created'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    return hook.json().data.webhook.id as string;
  }

  it('webhook attempts by outcome, their latency, and the queue depth', async () => {
    const hook = await hookOn('/metered');
    // The first attempt fails (500, retried 100 ms later), the second succeeds.
    receiver.answer((req, nth) => ({ status: req.path === '/metered' && nth === 0 ? 500 : 204 }));
    const before = await scrape(t, asScraper);
    await postDocument(t, admin, 'company', { name: 'Hooked' });
    await expect.poll(() => receiver.to('/metered').length, { timeout: 5_000 }).toBe(2);
    const moved = async (outcome: string) =>
      (await scrape(t, asScraper)).value('vellum_webhook_deliveries_total', { outcome }) -
      before.value('vellum_webhook_deliveries_total', { outcome });
    await expect.poll(() => moved('succeeded')).toBe(1);
    expect(await moved('failed')).toBe(1);
    const after = await scrape(t, asScraper);
    expect(
      after.value('vellum_webhook_delivery_duration_seconds_count') - before.value('vellum_webhook_delivery_duration_seconds_count'),
    ).toBe(2);
    expect(after.value('vellum_webhook_queue_depth')).toBe(0);
    await t.request({ method: 'DELETE', url: `/api/webhooks/${hook}`, token: admin });
  });

  it('the queue depth counts deliveries not finished yet', async () => {
    const hook = await hookOn('/slow');
    receiver.answer((req) => (req.path === '/slow' ? 'hang' : { status: 204 }));
    await postDocument(t, admin, 'company', { name: 'Queued' });
    await expect.poll(async () => (await scrape(t, asScraper)).value('vellum_webhook_queue_depth'), { timeout: 5_000 }).toBe(1);
    await t.request({ method: 'DELETE', url: `/api/webhooks/${hook}`, token: admin });
  });

  it('event streams: open now, and opened in all', async () => {
    const start = await scrape(t, asScraper);
    const before = start.value('vellum_event_streams_open');
    const stream = await openStream(t, { token: admin });
    expect(stream.status).toBe(200);
    const during = await scrape(t, asScraper);
    expect(during.value('vellum_event_streams_open')).toBe(before + 1);
    expect(during.value('vellum_event_streams_opened_total') - start.value('vellum_event_streams_opened_total')).toBe(1);
    stream.close();
    await expect.poll(async () => (await scrape(t, asScraper)).value('vellum_event_streams_open')).toBe(before);
    const after = await scrape(t, asScraper);
    expect(after.value('vellum_event_streams_opened_total')).toBeGreaterThanOrEqual(1);
    // A stream is not a request that ends: the request series leave it out (its refusals stay in).
    expect(after.value('vellum_http_requests_total', { route: '/api/events', method: 'GET', status: '200' })).toBe(0);
  });

  it('schedules run, by outcome, and how late they ran', async () => {
    const doc = await postDocument(t, admin, 'company', { name: 'Planned' });
    const at = new Date(now().getTime() + 60_000).toISOString();
    const created = await t.request({
      method: 'POST',
      url: `/api/documents/company/${doc._id}/schedule`,
      token: admin,
      payload: { action: 'publish', at },
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = await scrape(t, asScraper);
    offsetMs += 62_000;
    expect(await runDueSchedules(t.app.services)).toBe(1);
    const after = await scrape(t, asScraper);
    expect(
      after.value('vellum_schedules_run_total', { outcome: 'done' }) - before.value('vellum_schedules_run_total', { outcome: 'done' }),
    ).toBe(1);
    expect(after.value('vellum_schedule_lag_seconds_count') - before.value('vellum_schedule_lag_seconds_count')).toBe(1);
    // Ran about 2 s after its time (the clock moved 62 s for a schedule 60 s ahead).
    const lag = after.value('vellum_schedule_lag_seconds_sum') - before.value('vellum_schedule_lag_seconds_sum');
    expect(lag).toBeGreaterThan(1.9);
    expect(lag).toBeLessThan(10);
  });

  it('process metrics and the build info', async () => {
    const s = await scrape(t, asScraper);
    expect(s.family('process_cpu_user_seconds')?.type).toBe('counter');
    expect(s.family('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
    expect(s.family('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(s.family('vellum_build_info')!.samples).toEqual([
      { name: 'vellum_build_info', labels: { version: expect.stringMatching(/^\d+\.\d+\.\d+/), database: dialect }, value: 1 },
    ]);
  });
});

describe('who may scrape', () => {
  it('anonymous: 401 in the spec error body; a wrong token: 401; a malformed header: 401', async () => {
    expectSpecError(await t.request({ method: 'GET', url: '/api/metrics' }), 401, 'UNAUTHORIZED');
    const wrong = await t.request({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: 'Bearer scrape-token-wrong-0123456789' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('vellum_');
    expect((await t.request({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
  });

  it('signed in without settings:read: 403; with it (a role or an API token): 200; the scrape token: 200', async () => {
    expectSpecError(await t.request({ method: 'GET', url: '/api/metrics', token: await t.userToken('editor') }), 403, 'FORBIDDEN');
    expect((await t.request({ method: 'GET', url: '/api/metrics', token: await t.userToken('api', ['settings:read']) })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: 'GET', url: '/api/metrics', token: admin })).statusCode).toBe(200);
    const res = await t.request({ method: 'GET', url: '/api/metrics', headers: asScraper });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not in the OpenAPI document (its answer is not JSON)', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('switched off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ schemas: TEST_SCHEMAS, metrics: false });
  });
  afterAll(() => off?.close());

  it('metrics: false: the path does not exist (404), even for an admin', async () => {
    const token = await off.login('admin', 'admin-password-1');
    expectSpecError(await off.request({ method: 'GET', url: '/api/metrics', token }), 404, 'NOT_FOUND');
  });
});
