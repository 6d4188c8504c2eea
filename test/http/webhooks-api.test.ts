import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import { insertDelivery, type DeliveryStatus } from '../../packages/server/src/storage/webhooks/webhook-deliveries-store.js';
import type { TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { useContentApp } from '../helpers/use-content-app.js';

// The webhooks management API (docs/api.md, "Webhooks"): CRUD, the secret shown only on create
// and rotate, validation, deliveries list and retry.
let t: TestApp;
let admin: string;
useContentApp((app, token) => {
  t = app;
  admin = token;
});

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Site rebuild',
  url: 'https://hooks.example.com/vellum',
  events: ['document.published', 'document.unpublished'],
  types: ['post'],
  ...extra,
});

async function create(extra: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/webhooks', token: admin, payload: body(extra) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { secret: string; webhook: { id: string } & Record<string, unknown> };
}

describe('webhooks CRUD', () => {
  it('creates a webhook, returning its secret once', async () => {
    const res = await t.request({ method: 'POST', url: '/api/webhooks', token: admin, payload: body() });
    expect(res.statusCode).toBe(201);
    const { secret, webhook } = res.json().data;
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(webhook).toEqual({
      id: expect.any(String),
      name: 'Site rebuild',
      url: 'https://hooks.example.com/vellum',
      events: ['document.published', 'document.unpublished'],
      types: ['post'],
      active: true,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: expect.any(String),
    });
    // Only the create answer carries it: neither GET nor the list does.
    const got = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: admin });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(webhook);
    expect(got.body).not.toContain('whsec_');
    expect(got.body).not.toContain(secret.slice(6));
    const list = await t.request({ method: 'GET', url: '/api/webhooks', token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('whsec_');
    expect(list.json().data.map((w: { id: string }) => w.id)).toContain(webhook.id);
  });

  it('stores the secret sealed, not in plain text', async () => {
    const { secret, webhook } = await create();
    const row = await t.app.services.database.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(secret.slice(6));
    expect(t.app.services.secretBox.open(row.secret_enc)).toBe(secret);
  });

  it('lists newest first with paging meta', async () => {
    const a = await create({ name: 'first' });
    const b = await create({ name: 'second' });
    const res = await t.request({ method: 'GET', url: '/api/webhooks?limit=2&offset=0', token: admin });
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(data.map((w: { id: string }) => w.id)).toEqual([b.webhook.id, a.webhook.id]);
    expect(meta).toEqual({ total: expect.any(Number), limit: 2, offset: 0 });
    expect(meta.total).toBeGreaterThanOrEqual(2);
  });

  it('replaces a webhook with PUT; omitted types mean all', async () => {
    const { webhook } = await create();
    const res = await t.request({
      method: 'PUT',
      url: `/api/webhooks/${webhook.id}`,
      token: admin,
      payload: { name: 'Renamed', url: 'http://other.example.com/x', events: ['*'], active: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: webhook.id,
      name: 'Renamed',
      url: 'http://other.example.com/x',
      events: ['*'],
      types: [],
      active: false,
    });
    expect(res.body).not.toContain('whsec_');
    const got = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: admin });
    expect(got.json().data).toMatchObject({ name: 'Renamed', active: false });
  });

  it('re-activating a disabled webhook resets its failures and reason', async () => {
    const { webhook } = await create();
    await t.app.services.database.db
      .updateTable('webhooks')
      .set({ active: 0, consecutive_failures: 7, disabled_at: new Date().toISOString(), disabled_reason: 'too many failures' })
      .where('id', '=', webhook.id)
      .execute();
    const res = await t.request({ method: 'PUT', url: `/api/webhooks/${webhook.id}`, token: admin, payload: body({ active: true }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ active: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
  });

  it('rotating the secret returns a new one once and changes the stored one', async () => {
    const { secret, webhook } = await create();
    const res = await t.request({ method: 'POST', url: `/api/webhooks/${webhook.id}/rotate-secret`, token: admin });
    expect(res.statusCode).toBe(200);
    const rotated = res.json().data;
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.webhook.id).toBe(webhook.id);
    const row = await t.app.services.database.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(t.app.services.secretBox.open(row.secret_enc)).toBe(rotated.secret);
    const got = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: admin });
    expect(got.body).not.toContain('whsec_');
  });

  it('deletes a webhook and its deliveries', async () => {
    const { webhook } = await create();
    await addDeliveries(webhook.id, ['failed']);
    const res = await t.request({ method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expectSpecError(await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: admin }), 404, 'NOT_FOUND');
    const left = await t.app.services.database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhook.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('answers 404 for an unknown id on every endpoint', async () => {
    const id = uuidv7();
    const calls = [
      { method: 'GET', url: `/api/webhooks/${id}` },
      { method: 'PUT', url: `/api/webhooks/${id}`, payload: body() },
      { method: 'DELETE', url: `/api/webhooks/${id}` },
      { method: 'POST', url: `/api/webhooks/${id}/rotate-secret` },
      { method: 'GET', url: `/api/webhooks/${id}/deliveries` },
      { method: 'POST', url: `/api/webhooks/${id}/deliveries/${uuidv7()}/retry` },
    ] as const;
    for (const c of calls) expectSpecError(await t.request({ ...c, token: admin }), 404, 'NOT_FOUND');
  });
});

describe('webhook validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a URL that is not one', { url: 'not a url' }, 'url'],
    ['an ftp URL', { url: 'ftp://files.example.com/hook' }, 'url'],
    ['a URL with credentials', { url: 'https://user:pw@example.com/' }, 'url'],
    ['an unknown event', { events: ['document.exploded'] }, 'events.0'],
    ['an unknown resource pattern', { events: ['thing.*'] }, 'events.0'],
    ['an unknown type', { types: ['nope'] }, 'types.0'],
    ['no events', { events: [] }, 'events'],
    ['an unknown field', { secret: 'whsec_mine' }, ''],
    ['a number for the name', { name: 42 }, 'name'],
    ['a string for events', { events: 'document.created' }, 'events'],
    ['a string for active', { active: 'yes' }, 'active'],
    ['a huge name', { name: 'x'.repeat(10_000) }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
  ];
  for (const [what, extra, field] of cases) {
    it(`refuses ${what} with 422`, async () => {
      const res = await t.request({ method: 'POST', url: '/api/webhooks', token: admin, payload: body(extra) });
      const err = expectSpecError(res, 422, 'VALIDATION_ERROR');
      if (field) expect(err.details?.map((d) => d.field)).toContain(field);
      else expect(err.details?.length).toBeGreaterThan(0);
    });
  }

  it('names every problem at once', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: body({ url: 'ftp://x', events: ['document.created', 'nope'], types: ['post', 'ghost'] }),
    });
    const err = expectSpecError(res, 422, 'VALIDATION_ERROR');
    expect(err.details?.map((d) => d.field).sort()).toEqual(['events.1', 'types.1', 'url']);
  });

  it('validates PUT the same way', async () => {
    const { webhook } = await create();
    const res = await t.request({
      method: 'PUT',
      url: `/api/webhooks/${webhook.id}`,
      token: admin,
      payload: body({ events: ['media.exploded'] }),
    });
    expectSpecError(res, 422, 'VALIDATION_ERROR');
  });

  it('accepts every listed event and the wildcards', async () => {
    const events = ['*', 'document.*', 'media.*', 'user.*', 'document.created', 'media.deleted', 'user.updated'];
    const { webhook } = await create({ events, types: [] });
    expect(webhook.events).toEqual(events);
  });
});

async function addDeliveries(webhookId: string, statuses: DeliveryStatus[]): Promise<string[]> {
  const ids: string[] = [];
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  for (const [i, status] of statuses.entries()) {
    const id = uuidv7(base + i * 1000);
    ids.push(id);
    await insertDelivery(t.app.services.database, {
      id,
      webhookId,
      eventId: `evt_${i}`,
      eventType: 'document.published',
      payload: JSON.stringify({ id: `evt_${i}`, type: 'document.published', timestamp: new Date(base).toISOString(), data: {} }),
      status,
      attempts: status === 'pending' ? 0 : 3,
      nextAttemptAt: status === 'pending' ? new Date(base + i * 1000).toISOString() : null,
      claimedUntil: null,
      lastStatusCode: status === 'failed' || status === 'dead' ? 500 : null,
      lastDurationMs: status === 'pending' ? null : 12,
      lastError: status === 'failed' || status === 'dead' ? 'HTTP 500' : null,
      createdAt: new Date(base + i * 1000).toISOString(),
      deliveredAt: status === 'succeeded' ? new Date(base + i * 1000).toISOString() : null,
    });
  }
  return ids;
}

describe('webhook deliveries', () => {
  it('lists none for a new webhook', async () => {
    const { webhook } = await create();
    const res = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0 } });
  });

  it('pages newest first and filters by status, without payloads', async () => {
    const { webhook } = await create();
    const ids = await addDeliveries(webhook.id, ['succeeded', 'failed', 'pending', 'dead', 'failed']);
    const newestFirst = [...ids].reverse();
    const page1 = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries?limit=2`, token: admin });
    expect(page1.json().meta).toEqual({ total: 5, limit: 2, offset: 0 });
    expect(page1.json().data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(0, 2));
    const page2 = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries?limit=2&offset=2`, token: admin });
    expect(page2.json().data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(2, 4));
    const failed = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries?status=failed`, token: admin });
    expect(failed.json().meta.total).toBe(2);
    expect(failed.json().data.map((d: { id: string }) => d.id)).toEqual([ids[4], ids[1]]);
    expect(failed.json().data[0]).toEqual({
      id: ids[4],
      webhookId: webhook.id,
      eventId: 'evt_4',
      eventType: 'document.published',
      status: 'failed',
      attempts: 3,
      nextAttemptAt: null,
      lastStatusCode: 500,
      lastDurationMs: 12,
      lastError: 'HTTP 500',
      createdAt: expect.any(String),
      deliveredAt: null,
    });
    // Another hook's deliveries are not listed.
    const other = await create();
    const none = await t.request({ method: 'GET', url: `/api/webhooks/${other.webhook.id}/deliveries`, token: admin });
    expect(none.json().meta.total).toBe(0);
  });

  it('refuses an unknown status filter', async () => {
    const { webhook } = await create();
    const res = await t.request({ method: 'GET', url: `/api/webhooks/${webhook.id}/deliveries?status=lost`, token: admin });
    expectSpecError(res, 400, 'INVALID_INPUT');
  });

  it('retries failed and dead deliveries, due now', async () => {
    const { webhook } = await create();
    const [failed, dead] = await addDeliveries(webhook.id, ['failed', 'dead']);
    for (const id of [failed, dead]) {
      const before = Date.now();
      const res = await t.request({ method: 'POST', url: `/api/webhooks/${webhook.id}/deliveries/${id}/retry`, token: admin });
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json().data;
      expect(d).toMatchObject({ id, status: 'pending' });
      expect(Date.parse(d.nextAttemptAt)).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it('refuses to retry a pending, delivering or succeeded delivery with 409', async () => {
    const { webhook } = await create();
    const ids = await addDeliveries(webhook.id, ['pending', 'delivering', 'succeeded']);
    for (const id of ids) {
      const res = await t.request({ method: 'POST', url: `/api/webhooks/${webhook.id}/deliveries/${id}/retry`, token: admin });
      expectSpecError(res, 409, 'CONFLICT');
    }
  });

  it('answers 404 for a delivery of another webhook', async () => {
    const a = await create();
    const b = await create();
    const [id] = await addDeliveries(a.webhook.id, ['failed']);
    const res = await t.request({ method: 'POST', url: `/api/webhooks/${b.webhook.id}/deliveries/${id}/retry`, token: admin });
    expectSpecError(res, 404, 'NOT_FOUND');
  });
});
