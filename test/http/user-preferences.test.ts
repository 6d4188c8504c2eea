import { describe, expect, it } from 'vitest';
import { useAdminApp, startTestApp, type TestApp } from '../helpers/app.js';

// The user's own preferences (docs/api.md, "Preferences"): `GET /auth/me` carries them for the
// user's session, `PUT /auth/me/preferences` replaces them; nobody else sees them.
let t: TestApp;
let admin: string;

useAdminApp(
  () => startTestApp(),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });
const put = (token: string, payload: unknown) =>
  t.request({ method: 'PUT', url: '/api/auth/me/preferences', token, payload: payload as object });

describe('user preferences', () => {
  it('start as {} and are replaced as a whole by PUT', async () => {
    const token = await t.userToken('editor');
    expect((await me(token)).json().data.preferences).toEqual({});
    const views = { studio: { lists: { post: { views: [{ name: 'Mine', sort: 'title', columns: ['title'] }] } } } };
    const res = await put(token, views);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(views);
    expect((await me(token)).json().data.preferences).toEqual(views);
    expect((await put(token, { other: 1 })).json().data).toEqual({ other: 1 });
    expect((await me(token)).json().data.preferences).toEqual({ other: 1 });
  });

  it('refuse anything but an object (422) and more than 64 KiB of JSON (413)', async () => {
    const token = await t.userToken('writer');
    for (const bad of [[1, 2], 'text', 3]) {
      const res = await t.request({
        method: 'PUT',
        url: '/api/auth/me/preferences',
        token,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(bad),
      });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(422);
    }
    const big = await put(token, { text: 'x'.repeat(70 * 1024) });
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await me(token)).json().data.preferences).toEqual({});
  });

  it('are the user’s own: not in /users answers (administrators included), not for tokens or anonymous callers', async () => {
    const token = await t.userToken('editor');
    await put(token, { secret: 'mine' });
    const id = (await me(token)).json().data.id as string;
    const one = await t.request({ method: 'GET', url: `/api/users/${id}`, token: admin });
    expect(one.statusCode).toBe(200);
    expect(one.json().data).not.toHaveProperty('preferences');
    const all = await t.request({ method: 'GET', url: '/api/users?limit=100', token: admin });
    expect(all.body).not.toContain('secret');
    expect((await me(admin)).json().data.preferences).toEqual({});
    expect((await t.request({ method: 'PUT', url: '/api/auth/me/preferences', payload: {} })).statusCode).toBe(401);
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'p', permissions: ['content:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await put(created.json().data.token as string, {})).statusCode).toBe(403);
  });
});

describe('the preferences route in OpenAPI', () => {
  it('is listed, with an object body', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/auth/me/preferences']?.put;
    expect(op?.operationId).toBe('putAuthMePreferences');
    expect(op.requestBody.content['application/json'].schema.type).toBe('object');
  });
});
