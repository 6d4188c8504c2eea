import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { passkeyClient, PASSKEYS } from '../helpers/passkey-client.js';
import { enableTotp, totpCode } from '../helpers/totp.js';

// Cookie sessions (docs/api.md, "Cookie sessions") for every way in, not only the password:
// a passkey sign-in, a provider sign-in and a login finished with a second factor set the same
// three cookies as a password login; an answer that is not yet a session sets none.
const idp = useOidcProvider();
let t: TestApp;
let admin: string;
const passkeys = passkeyClient(() => t);
const PASSWORD = 'cookie-password-1';
let n = 0;

function setCookies(res: LightMyRequestResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(list.map((c) => [c.split('=')[0], c]));
}
const value = (cookie: string) => decodeURIComponent(cookie.split(';')[0].split('=').slice(1).join('='));

/** The answer is a session: its three cookies carry the body's tokens and work without a bearer. */
async function expectCookieSession(res: LightMyRequestResponse, username: string) {
  expect(res.statusCode, res.body).toBe(200);
  const cookies = setCookies(res);
  expect(Object.keys(cookies).sort()).toEqual(['vellum_access', 'vellum_csrf', 'vellum_refresh']);
  expect(cookies.vellum_access).toMatch(/; Path=\/api; .*HttpOnly$/);
  expect(cookies.vellum_refresh).toMatch(/; Path=\/api\/auth; .*HttpOnly$/);
  expect(cookies.vellum_csrf).not.toMatch(/HttpOnly/);
  const body = res.json().data;
  expect(value(cookies.vellum_access)).toBe(body.token);
  expect(value(cookies.vellum_refresh)).toBe(body.refreshToken);
  const cookie = `vellum_access=${encodeURIComponent(body.token)}`;
  const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
  expect(me.statusCode, me.body).toBe(200);
  expect(me.json().data.username).toBe(username);
}

async function newUser(): Promise<{ username: string; token: string }> {
  const username = `cookie${++n}`;
  await createUser(t, admin, { username, password: PASSWORD });
  return { username, token: await t.login(username, PASSWORD) };
}

const setMfaRequired = (on: boolean) =>
  t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: on } });

describe('cookie sessions from every sign-in', () => {
  useAdminApp(
    () =>
      startTestApp({
        ...PASSKEYS,
        ...idp.config(),
        security: { ...PASSKEYS.security, ...idp.config().security, cookie: { secure: false } },
      }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('a passkey sign-in sets the session cookies', async () => {
    const user = await newUser();
    const { key } = await passkeys.register(user.token);
    await expectCookieSession(await passkeys.loginWith(key), user.username);
  });

  it('a provider sign-in sets the session cookies', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'cookie-idp', mode: 'link', token: user.token })).statusCode).toBe(200);
    await expectCookieSession(await idp.flow(t, { sub: 'cookie-idp' }), user.username);
  });

  it('under mfaRequired a provider sign-in without a method sets no cookie; finishing setup with the setup token does', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'cookie-setup', mode: 'link', token: user.token })).statusCode).toBe(200);
    await setMfaRequired(true);
    try {
      const res = await idp.flow(t, { sub: 'cookie-setup' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({
        requiresMFASetup: true,
        setupToken: expect.any(String),
        methods: ['totp'],
        expiresAt: expect.any(String),
      });
      expect(res.headers['set-cookie']).toBeUndefined();
      const headers = { 'x-mfa-setup-token': res.json().data.setupToken };
      const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', headers });
      expect(setup.statusCode, setup.body).toBe(200);
      const code = totpCode(setup.json().data.secret);
      const done = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', headers, payload: { code } });
      await expectCookieSession(done, user.username);
      expect(done.json().data.backupCodes).toHaveLength(10);
    } finally {
      await setMfaRequired(false);
    }
  });

  it('a provider sign-in that needs the second factor sets no cookie; the verified code does', async () => {
    const user = await newUser();
    const { backupCodes } = await enableTotp(t, user.token);
    expect((await idp.flow(t, { sub: 'cookie-mfa', mode: 'link', token: user.token })).statusCode).toBe(200);
    const res = await idp.flow(t, { sub: 'cookie-mfa' });
    expect(res.json().data.requiresMFA).toBe(true);
    expect(res.headers['set-cookie']).toBeUndefined();
    // The setup's code was spent (replay guard): use a backup code to finish.
    const verify = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/verify-backup',
      payload: { mfaToken: res.json().data.mfaToken, code: backupCodes[0] },
    });
    await expectCookieSession(verify, user.username);
  });
});
