import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { png } from '../helpers/media-fixtures.js';
import { deviceTokens } from '../helpers/oauth2.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// An OAuth access token acts with its scopes intersected with its user's rights, and never with
// the user's role (docs/oauth2.md, "Scopes"): the scope tests.
let t: TestApp;
let admin: string;

async function upload(token: string) {
  const body = new FormData();
  body.append('file', new Blob([await png(8, 8)]), 'dot.png');
  const req = new Request('http://localhost/', { method: 'POST', body });
  return t.request({
    method: 'POST',
    url: '/api/media',
    token,
    headers: { 'content-type': req.headers.get('content-type') as string },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}

describe('OAuth scopes on the API', () => {
  useAdminApp(
    () => startTestApp({ oauth2: { enabled: true }, schemas: TEST_SCHEMAS }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('a content:read token reads documents but cannot create one (403)', async () => {
    await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Seen' } });
    const { access_token: token, scope } = await deviceTokens(t, admin, 'content:read');
    expect(scope).toBe('content:read');
    const list = await t.request({ method: 'GET', url: '/api/collections/company', token });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(1);
    expectSpecError(await t.request({ method: 'POST', url: '/api/documents/company', token, payload: { name: 'No' } }), 403, 'FORBIDDEN');
  });

  it('a media:write token uploads but cannot delete media (403)', async () => {
    const { access_token: token } = await deviceTokens(t, admin, 'media:write');
    const up = await upload(token);
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().data._id as string;
    expectSpecError(await t.request({ method: 'DELETE', url: `/api/media/${id}`, token }), 403, 'FORBIDDEN');
    expect((await t.request({ method: 'DELETE', url: `/api/media/${id}`, token: admin })).statusCode).toBe(200);
  });

  it("an admin's content:write token creates documents but cannot call /users, /tokens or PUT /config/settings (403)", async () => {
    const { access_token: token } = await deviceTokens(t, admin, 'content:write');
    const created = await t.request({ method: 'POST', url: '/api/documents/company', token, payload: { name: 'Made by OAuth' } });
    expect(created.statusCode, created.body).toBe(201);
    expectSpecError(await t.request({ method: 'GET', url: '/api/users', token }), 403, 'FORBIDDEN');
    expectSpecError(await t.request({ method: 'GET', url: '/api/tokens', token }), 403, 'FORBIDDEN');
    expectSpecError(
      await t.request({ method: 'POST', url: '/api/tokens', token, payload: { name: 'escalate', permissions: ['content:read'] } }),
      403,
      'FORBIDDEN',
    );
    expectSpecError(
      await t.request({ method: 'PUT', url: '/api/config/settings', token, payload: { siteName: 'Taken over' } }),
      403,
      'FORBIDDEN',
    );
    expectSpecError(await t.request({ method: 'GET', url: '/api/audit', token }), 403, 'FORBIDDEN');
  });

  it("a viewer's content:write token still only reads: the user's own rights cap the scopes", async () => {
    const viewer = await t.userToken('viewer');
    const { access_token: token } = await deviceTokens(t, viewer, 'content:write');
    expect((await t.request({ method: 'GET', url: '/api/collections/company', token })).statusCode).toBe(200);
    expectSpecError(await t.request({ method: 'POST', url: '/api/documents/company', token, payload: { name: 'No' } }), 403, 'FORBIDDEN');
  });

  it('whoami: GET /auth/me answers with the user; POST /auth/validate reports kind oauth, the client and the scopes', async () => {
    const { access_token: token } = await deviceTokens(t, admin, 'content:read media:read');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    expect(me.json().data.username).toBe('admin');
    const v = await t.request({ method: 'POST', url: '/api/auth/validate', token });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json().data).toEqual({
      valid: true,
      kind: 'oauth',
      user: { id: me.json().data.id, username: 'admin', role: 'admin', name: expect.any(String) },
      oauth: { client: { id: 'service-cli', name: 'Vellum CLI' }, scopes: ['content:read', 'media:read'] },
      role: 'oauth',
      permissions: ['content:read', 'media:read'],
    });
  });

  it("an OAuth token cannot approve devices nor manage grants: those are a signed-in user's acts (403)", async () => {
    const { access_token: token } = await deviceTokens(t, admin, 'content:read');
    expectSpecError(await t.request({ method: 'GET', url: '/api/auth/device/verify?code=BCDF-GHJK', token }), 403, 'FORBIDDEN');
    expectSpecError(await t.request({ method: 'GET', url: '/api/auth/grants', token }), 403, 'FORBIDDEN');
    const apiToken = (
      await t.request({ method: 'POST', url: '/api/tokens', token: admin, payload: { name: 'ci', permissions: ['content:read'] } })
    ).json().data.token as string;
    expectSpecError(
      await t.request({
        method: 'POST',
        url: '/api/auth/device/verify',
        token: apiToken,
        payload: { user_code: 'BCDF-GHJK', action: 'approve' },
      }),
      403,
      'FORBIDDEN',
    );
  });
});
