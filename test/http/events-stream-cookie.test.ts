import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { documentEvent, publish } from '../helpers/change-events.js';
import { createUser } from '../helpers/create-user.js';
import { openStream } from '../helpers/event-stream.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// GET /events with the studio's cookie session, on an instance whose documents are not public
// (docs/realtime.md, "Request"): anonymous callers are refused, the cookie authenticates the
// stream and every re-check of it.
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    schemas: TEST_SCHEMAS,
    documents: { publicRead: false },
    security: { cookie: { secure: false, sameSite: 'strict' } },
    realtime: { heartbeat: '50ms', fanout: 'local' },
  });
});
afterAll(() => t?.close());

/** The `cookie` request header for the cookies a login set. */
function cookieHeader(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  return ((Array.isArray(raw) ? raw : [raw]) as string[]).map((c) => c.split(';')[0]).join('; ');
}

describe('GET /events with cookie sessions and documents.publicRead: false', () => {
  it('refuses anonymous callers with 401', async () => {
    const s = await openStream(t);
    expect(s.status).toBe(401);
    expect(s.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it('streams to a cookie session, re-checked with the cookie: deactivating the user ends it', async () => {
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const username = `cookie_${Date.now()}`;
    const id = await createUser(t, admin, { username, password: 'cookie-password-1', role: 'viewer' });
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'cookie-password-1' } });
    expect(login.statusCode).toBe(200);
    const s = await openStream(t, { headers: { cookie: cookieHeader(login) } });
    expect(s.status).toBe(200);
    // A viewer reads drafts: the cookie, not anonymity, authenticated the stream.
    const [event] = await publish(t, documentEvent('document.created', 'post', { status: 'draft' }));
    expect((await s.waitForMessages(1))[0].lastEventId).toBe(event.id);
    // Several heartbeats pass with the session valid: the stream stays open.
    await s.waitForComments(3);
    expect(s.messages).toHaveLength(1);
    const off = await t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    await s.ended;
  });
});
