import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { deviceTokens, form } from '../helpers/oauth2.js';

// The user's side of the authorization server (docs/oauth2.md, "Device flow", "Grants"): the
// device page's guessing limit, the grants list and its revocation, and the audit records.
let t: TestApp;
let admin: string;

const startDevice = async () =>
  (await t.request({ method: 'POST', url: '/api/auth/device', ...form({ client_id: 'service-cli', scope: 'content:read' }) })).json() as {
    user_code: string;
    device_code: string;
  };

describe('device verification and grants', () => {
  useAdminApp(
    () => startTestApp({ oauth2: { enabled: true } }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('only a signed-in user verifies: anonymous 401', async () => {
    expectSpecError(await t.request({ method: 'GET', url: '/api/auth/device/verify?code=BCDF-GHJK' }), 401, 'UNAUTHORIZED');
    expectSpecError(
      await t.request({ method: 'POST', url: '/api/auth/device/verify', payload: { user_code: 'BCDF-GHJK', action: 'approve' } }),
      401,
      'UNAUTHORIZED',
    );
    expectSpecError(await t.request({ method: 'GET', url: '/api/auth/grants' }), 401, 'UNAUTHORIZED');
  });

  it('a malformed body is 422 VALIDATION_ERROR; scopes beyond those asked for are 400 INVALID_INPUT', async () => {
    const { user_code: code } = await startDevice();
    const post = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/device/verify', token: admin, payload });
    expectSpecError(await post({ user_code: code, action: 'maybe' }), 422, 'VALIDATION_ERROR');
    expectSpecError(await post({ user_code: code, action: 'approve', scopes: [] }), 422, 'VALIDATION_ERROR');
    expectSpecError(await post({ user_code: code, action: 'approve', scopes: ['media:read'] }), 400, 'INVALID_INPUT');
    expectSpecError(await post({ user_code: code, action: 'approve', scopes: ['admin'] }), 400, 'INVALID_INPUT');
    expect((await post({ user_code: code, action: 'approve', scopes: ['content:read'] })).statusCode).toBe(200);
  });

  it('guessing user codes: misses count per user and per IP, then 429 RATE_LIMITED with Retry-After', async () => {
    const guesser = await t.userToken('editor');
    const other = await t.userToken('editor');
    const guess = (token: string, remoteAddress: string, code = 'BCDF-GHJK') =>
      t.request({ method: 'GET', url: `/api/auth/device/verify?code=${code}`, token, remoteAddress });
    for (let i = 0; i < 5; i++) expectSpecError(await guess(guesser, '10.0.0.1'), 404, 'NOT_FOUND');
    for (let i = 0; i < 5; i++) expectSpecError(await guess(guesser, '10.0.0.2', 'nonsense'), 404, 'NOT_FOUND');
    const limited = await guess(guesser, '10.0.0.3');
    expect(expectSpecError(limited, 429, 'RATE_LIMITED').retryAfter).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The user is spent whatever the address, even for a real code…
    const { user_code: real } = await startDevice();
    expectSpecError(await guess(guesser, '10.0.0.4', real), 429, 'RATE_LIMITED');
    expectSpecError(
      await t.request({
        method: 'POST',
        url: '/api/auth/device/verify',
        token: guesser,
        remoteAddress: '10.0.0.4',
        payload: { user_code: real, action: 'approve' },
      }),
      429,
      'RATE_LIMITED',
    );
    // …another user is not, until the address is spent too.
    expect((await guess(other, '10.0.0.5', real)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expectSpecError(await guess(other, '10.0.0.1'), 404, 'NOT_FOUND');
    expectSpecError(await guess(other, '10.0.0.1', real), 429, 'RATE_LIMITED');
  });

  it("GET /auth/grants lists the live grants of the caller; DELETE revokes one (404 for another user's), its tokens stop", async () => {
    const editor = await t.userToken('editor');
    const mine = await deviceTokens(t, editor, 'content:read media:read');
    await deviceTokens(t, admin, 'content:read');
    const list = await t.request({ method: 'GET', url: '/api/auth/grants', token: editor });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      data: [
        {
          id: expect.any(String),
          client: { id: 'service-cli', name: 'Vellum CLI' },
          scopes: ['content:read', 'media:read'],
          createdAt: expect.any(String),
          lastUsedAt: expect.any(String),
        },
      ],
    });
    const id = list.json().data[0].id as string;
    expectSpecError(await t.request({ method: 'DELETE', url: `/api/auth/grants/${id}`, token: admin }), 404, 'NOT_FOUND');
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: mine.access_token })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/auth/grants/${id}`, token: editor })).json()).toEqual({
      data: { success: true },
    });
    expectSpecError(await t.request({ method: 'GET', url: '/api/auth/me', token: mine.access_token }), 401, 'UNAUTHORIZED');
    const token = await t.request({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'refresh_token', refresh_token: mine.refresh_token, client_id: 'service-cli' }),
    });
    expect(token.json().error).toBe('invalid_grant');
    expect((await t.request({ method: 'GET', url: '/api/auth/grants', token: editor })).json()).toEqual({ data: [] });
    expectSpecError(await t.request({ method: 'DELETE', url: `/api/auth/grants/${id}`, token: editor }), 404, 'NOT_FOUND');
  });

  it('audit: an approval records oauthGrant (user, client, scopes), a revocation oauthRevoke', async () => {
    const tokens = await deviceTokens(t, admin, 'content:read media:read', ['media:read']);
    await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ client_id: 'service-cli', token: tokens.refresh_token }) });
    const res = await t.request({ method: 'GET', url: '/api/audit?type=oauthGrant,oauthRevoke', token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const records = res.json().data as Array<{ type: string; details: Record<string, unknown>; actor: { kind: string } }>;
    const me = (await t.request({ method: 'GET', url: '/api/auth/me', token: admin })).json().data.id;
    expect(records.find((r) => r.type === 'oauthGrant' && (r.details.scopes as string[]).join() === 'media:read')).toMatchObject({
      target: me,
      actor: { kind: 'user', id: me },
      details: { clientId: 'service-cli', scopes: ['media:read'], flow: 'device_code' },
    });
    expect(records.find((r) => r.type === 'oauthRevoke')).toMatchObject({
      target: me,
      details: { clientId: 'service-cli', via: 'revocation' },
    });
    expect(JSON.stringify(records)).not.toContain(tokens.refresh_token);
  });

  it('a signed-in user with a cookie session verifies too', async () => {
    const session = await startTestApp({ oauth2: { enabled: true }, security: { cookie: { secure: false, sameSite: 'strict' } } });
    try {
      const login = await session.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: ADMIN.password },
      });
      const cookies = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const csrf = login.cookies.find((c) => c.name === 'vellum_csrf')?.value as string;
      const d = (
        await session.request({ method: 'POST', url: '/api/auth/device', ...form({ client_id: 'service-cli', scope: 'content:read' }) })
      ).json();
      const view = await session.request({
        method: 'GET',
        url: `/api/auth/device/verify?code=${d.user_code}`,
        headers: { cookie: cookies },
      });
      expect(view.statusCode, view.body).toBe(200);
      const ok = await session.request({
        method: 'POST',
        url: '/api/auth/device/verify',
        headers: { cookie: cookies, 'x-csrf-token': csrf },
        payload: { user_code: d.user_code, action: 'approve' },
      });
      expect(ok.statusCode, ok.body).toBe(200);
    } finally {
      await session.close();
    }
  });
});
