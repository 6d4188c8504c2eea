import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { documentEvent, publish } from '../helpers/change-events.js';
import { createUser } from '../helpers/create-user.js';
import { listeningUrl, openStream } from '../helpers/event-stream.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// GET /events over time (docs/realtime.md): the per-node limit, heartbeats that re-check the
// caller, streams ended when the credential stops holding, and server close.
let t: TestApp;
let admin: string;
// One node (fanout local): events reach the streams as published, data and all, on both dialects.
const REALTIME = { heartbeat: '50ms', maxStreams: 2, fanout: 'local' };
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, realtime: REALTIME }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('GET /events over time', () => {
  it('answers 503 beyond realtime.maxStreams, and takes a new stream once one ends', async () => {
    const a = await openStream(t, { token: admin });
    const b = await openStream(t, { token: admin });
    try {
      const c = await openStream(t, { token: admin });
      expect(c.status).toBe(503);
      expect(c.body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      expect(c.headers.get('retry-after')).toBeTruthy();
    } finally {
      a.close();
      b.close();
    }
    await expect
      .poll(async () => {
        const d = await openStream(t, { token: admin });
        d.close();
        return d.status;
      })
      .toBe(200);
  });

  it('sends `: ping` comments at the configured interval', async () => {
    const s = await openStream(t, { token: admin });
    try {
      expect(await s.waitForComments(2)).toEqual(['ping', 'ping']);
    } finally {
      s.close();
    }
  });

  it('ends the stream of a user who is deactivated', async () => {
    const username = `reader_${Date.now()}`;
    const id = await createUser(t, admin, { username, password: 'reader-password-1', role: 'viewer' });
    const token = await t.login(username, 'reader-password-1');
    const s = await openStream(t, { token });
    try {
      expect(s.status).toBe(200);
      await publish(t, documentEvent('document.created', 'post', { status: 'draft' }));
      await s.waitForMessages(1);
      const off = await t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: false } });
      expect(off.statusCode, off.body).toBe(200);
      await s.ended;
      expect(s.messages).toHaveLength(1);
    } finally {
      s.close();
    }
  });

  it('ends the stream of an API token that is revoked', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'stream', permissions: ['content:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { token, apiToken } = created.json().data as { token: string; apiToken: { id: string } };
    const s = await openStream(t, { token });
    try {
      expect(s.status).toBe(200);
      const revoked = await t.request({ method: 'DELETE', url: `/api/tokens/${apiToken.id}`, token: admin });
      expect(revoked.statusCode, revoked.body).toBeLessThan(300);
      await s.ended;
    } finally {
      s.close();
    }
  });

  it('ends the stream of a client that does not read (its unsent output past 4 MiB), so memory stays bounded', async () => {
    const base = await listeningUrl(t);
    const res = await fetch(`${base}/events?types=post`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    // 64 MB of events while the client reads nothing: more than the server may hold for it
    // plus what the socket buffers of both sides take.
    const body = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 256; i++) await publish(t, documentEvent('document.updated', 'post', { data: { body } }));
    let received = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
    }
    expect(received).toBeLessThan(256 * body.length);
  });

  it('ends open streams when the app closes (close does not wait for them)', async () => {
    const other = await startTestApp({ schemas: TEST_SCHEMAS, realtime: { heartbeat: '1h' } });
    let closed = false;
    try {
      const s = await openStream(other, { token: await other.login('admin', 'admin-password-1') });
      expect(s.status).toBe(200);
      await other.close();
      closed = true;
      await s.ended;
    } finally {
      if (!closed) await other.close();
    }
  });
});
