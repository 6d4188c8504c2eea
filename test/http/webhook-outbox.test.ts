import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../packages/server/src/domain/events/change-event.js';
import type { TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

// The outbox (docs/webhooks.md, "Delivery"): every write queues its events for the active
// webhooks that take them, in the write's own transaction, with the payload `{id, type,
// timestamp, data}` where `data` is the resource as an admin reads it; a write that fails queues
// nothing; committed changes are announced on the change bus in order.
let t: TestApp;
let admin: string;
useContentApp((app, token) => {
  t = app;
  admin = token;
});

interface Row {
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  created_at: string;
}

// The hooks point at an address nothing answers; these tests read the queued rows, not what a worker does with them.
async function hook(events: string[], types: string[] = [], active = true): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/webhooks',
    token: admin,
    payload: { name: `hook ${events.join(',')}`, url: 'https://hooks.invalid/in', events, types, active },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.webhook.id;
}

async function queued(webhookId: string): Promise<Row[]> {
  const rows = await t.app.services.database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('event_id')
    .orderBy('id')
    .execute();
  return rows as unknown as Row[];
}

const payloads = async (webhookId: string) => (await queued(webhookId)).map((r) => JSON.parse(r.payload));
const types = async (webhookId: string) => (await queued(webhookId)).map((r) => r.event_type);

async function read(url: string): Promise<Record<string, unknown>> {
  const res = await t.request({ method: 'GET', url, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function send(method: 'PATCH' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown, status = 200) {
  const res = await t.request({ method, url, token: admin, payload: payload as never });
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
}

describe('document events', () => {
  it('queues created, updated, published, unpublished and deleted, each with the document as an admin reads it', async () => {
    const id = await hook(['document.*'], ['author']);
    const doc = await postDocument(t, admin, 'author', { name: 'Ada' });
    const created = await read(`/api/documents/author/${doc._id}`);
    await send('PATCH', `/api/documents/author/${doc._id}`, { bio: 'Mathematician' });
    const updated = await read(`/api/documents/author/${doc._id}`);
    await send('PATCH', `/api/documents/author/${doc._id}`, { _status: 'published' });
    const published = await read(`/api/documents/author/${doc._id}`);
    await send('PUT', `/api/documents/author/${doc._id}`, { name: 'Ada L.', _status: 'draft' });
    const unpublished = await read(`/api/documents/author/${doc._id}`);
    await send('DELETE', `/api/documents/author/${doc._id}`, undefined, 200);

    const sent = await payloads(id);
    expect(sent.map((p) => p.type)).toEqual([
      'document.created',
      'document.updated',
      'document.published',
      'document.unpublished',
      'document.deleted',
    ]);
    expect(sent.map((p) => p.data)).toEqual([created, updated, published, unpublished, unpublished]);
    for (const p of sent) {
      expect(Object.keys(p).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
      expect(p.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // Each event has its own id, and the row's event id is the payload's.
    expect(new Set(sent.map((p) => p.id)).size).toBe(5);
    expect((await queued(id)).map((r) => r.event_id)).toEqual(sent.map((p) => p.id));
    expect((await queued(id)).every((r) => r.status !== undefined)).toBe(true);
  });

  it('a document created published queues document.created then document.published', async () => {
    const id = await hook(['*'], ['author']);
    const doc = await postDocument(t, admin, 'author', { name: 'Grace', _status: 'published' });
    expect(await types(id)).toEqual(['document.created', 'document.published']);
    const [created, published] = await payloads(id);
    expect(created.data).toEqual(await read(`/api/documents/author/${doc._id}`));
    expect(published.data).toEqual(created.data);
  });

  it('the payload carries the slug generated while writing, on the fast and the checked path', async () => {
    const id = await hook(['document.created'], ['post']);
    const first = await postDocument(t, admin, 'post', { title: 'Same Title' });
    // The plain slug is taken now: this create goes the checked path and gets `-2`.
    const second = await postDocument(t, admin, 'post', { title: 'Same Title' });
    expect(second.slug).not.toEqual(first.slug);
    const data = (await payloads(id)).map((p) => p.data);
    expect(data).toEqual([first, second]);
  });

  it('a singleton (always the checked path) queues its create', async () => {
    const id = await hook(['document.created'], ['site']);
    const site = await postDocument(t, admin, 'site', { siteName: 'Vellum' });
    expect((await payloads(id)).map((p) => p.data)).toEqual([site]);
  });

  it('restoring a revision queues document.updated', async () => {
    const id = await hook(['document.updated'], ['company']);
    const doc = await postDocument(t, admin, 'company', { name: 'Acme' });
    await send('PATCH', `/api/documents/company/${doc._id}`, { name: 'Acme 2' });
    const res = await t.request({ method: 'POST', url: `/api/documents/company/${doc._id}/revisions/1/restore`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const sent = await payloads(id);
    expect(sent.map((p) => p.data.name)).toEqual(['Acme 2', 'Acme']);
  });

  it('filters by event name and document type', async () => {
    const postsPublished = await hook(['document.published'], ['post']);
    const everything = await hook(['*']);
    const p = await postDocument(t, admin, 'post', { title: 'Filtered' });
    await postDocument(t, admin, 'company', { name: 'Other', _status: 'published' });
    await send('PATCH', `/api/documents/post/${p._id}`, { _status: 'published' });
    expect(await types(postsPublished)).toEqual(['document.published']);
    expect((await payloads(postsPublished))[0].data._id).toBe(p._id);
    expect(await types(everything)).toEqual(['document.created', 'document.created', 'document.published', 'document.published']);
  });

  it('queues nothing for an inactive hook, nor for one switched off by another node since this one read the list', async () => {
    const off = await hook(['*'], [], false);
    const switched = await hook(['*']);
    await postDocument(t, admin, 'company', { name: 'Before' });
    expect(await types(switched)).toEqual(['document.created']);
    // Another node switches it off: this node's list still has it for a few seconds, the insert checks.
    await t.app.services.database.db.updateTable('webhooks').set({ active: 0 }).where('id', '=', switched).execute();
    await postDocument(t, admin, 'company', { name: 'After' });
    expect(await types(switched)).toEqual(['document.created']);
    expect(await queued(off)).toEqual([]);
  });

  it('an unchanged update, a refused delete and a failed precondition queue nothing', async () => {
    const id = await hook(['document.*'], ['company', 'author']);
    const company = await postDocument(t, admin, 'company', { name: 'Referenced' });
    await postDocument(t, admin, 'author', { name: 'Refers', company: company._id });
    const before = (await queued(id)).length;
    await send('PATCH', `/api/documents/company/${company._id}`, { name: 'Referenced' });
    const refused = await t.request({ method: 'DELETE', url: `/api/documents/company/${company._id}`, token: admin });
    expect(refused.statusCode).toBe(409);
    const stale = await t.request({
      method: 'PATCH',
      url: `/api/documents/company/${company._id}`,
      token: admin,
      headers: { 'if-match': '"999"' },
      payload: { name: 'Nope' },
    });
    expect(stale.statusCode).toBe(412);
    const invalid = await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { country: 'xx' } });
    expect(invalid.statusCode).toBe(422);
    expect((await queued(id)).length).toBe(before);
  });
});

describe('media and user events', () => {
  it('queues media.created, media.updated and media.deleted with the item as served', async () => {
    const id = await hook(['media.*']);
    const up = await t.request({ method: 'POST', url: '/api/media', token: admin, ...(await multipartUpload(await png(8, 8), 'dot.png')) });
    expect(up.statusCode, up.body).toBe(201);
    const mediaId = up.json().data._id;
    const created = await read(`/api/media/${mediaId}`);
    await send('PATCH', `/api/media/${mediaId}`, { alt: 'A dot' });
    const updated = await read(`/api/media/${mediaId}`);
    await send('DELETE', `/api/media/${mediaId}`, undefined, 200);
    const sent = await payloads(id);
    expect(sent.map((p) => p.type)).toEqual(['media.created', 'media.updated', 'media.deleted']);
    expect(sent.map((p) => p.data)).toEqual([created, updated, updated]);
  });

  it('queues user.created, user.updated (users API and profile) and user.deleted, never a hash', async () => {
    const id = await hook(['user.*']);
    const created = await send(
      'POST',
      '/api/users',
      { username: 'hooked', email: 'hooked@example.com', password: 'hooked-password-1', role: 'editor' },
      201,
    );
    await send('PUT', `/api/users/${created.id}`, { role: 'author' });
    const afterRole = await read(`/api/users/${created.id}`);
    const token = await t.login('hooked', 'hooked-password-1');
    const profile = await t.request({ method: 'PATCH', url: '/api/auth/me', token, payload: { firstName: 'Hook' } });
    expect(profile.statusCode, profile.body).toBe(200);
    const afterProfile = await read(`/api/users/${created.id}`);
    await send('DELETE', `/api/users/${created.id}`, undefined, 200);
    const sent = await payloads(id);
    expect(sent.map((p) => p.type)).toEqual(['user.created', 'user.updated', 'user.updated', 'user.deleted']);
    expect(sent[0].data).toEqual(created);
    expect(sent[1].data).toEqual(afterRole);
    expect(sent[2].data).toEqual(afterProfile);
    expect(sent[3].data).toEqual(afterProfile);
    const raw = (await queued(id)).map((r) => r.payload).join('\n');
    expect(raw).not.toMatch(/\$2[aby]\$/);
    expect(raw).not.toMatch(/password/i);
  });
});

describe('the change bus', () => {
  it('announces committed changes in order, with the ids the outbox uses, and nothing for a refused write', async () => {
    const id = await hook(['document.*'], ['company']);
    const heard: ChangeEvent[] = [];
    const stop = t.app.services.events.subscribe((e) => heard.push(e));
    try {
      const doc = await postDocument(t, admin, 'company', { name: 'Bus' });
      await send('PATCH', `/api/documents/company/${doc._id}`, { name: 'Bus 2' });
      const refused = await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { country: 'fr' } });
      expect(refused.statusCode).toBe(422);
      await send('DELETE', `/api/documents/company/${doc._id}`, undefined, 200);
      // On PostgreSQL the bus delivers what comes back from NOTIFY (docs/realtime.md, "Several nodes"): after the write answered.
      await expect
        .poll(() => heard.map((e) => [e.type, e.subject]))
        .toEqual([
          ['document.created', { kind: 'document', docType: 'company', id: doc._id, rev: 1, status: 'draft' }],
          ['document.updated', { kind: 'document', docType: 'company', id: doc._id, rev: 2, status: 'draft' }],
          ['document.deleted', { kind: 'document', docType: 'company', id: doc._id, rev: 2, status: 'draft' }],
        ]);
      expect(heard.map((e) => e.id)).toEqual((await queued(id)).map((r) => r.event_id));
    } finally {
      stop();
    }
  });

  it('announces changes even when no webhook takes them', async () => {
    const heard: string[] = [];
    const stop = t.app.services.events.subscribe((e) => heard.push(e.type));
    try {
      await send('POST', '/api/users', { username: 'busy', email: 'busy@example.com', password: 'busy-password-1', role: 'viewer' }, 201);
      await expect.poll(() => heard).toEqual(['user.created']);
    } finally {
      stop();
    }
  });
});
