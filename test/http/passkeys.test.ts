import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { expectUnauthorized, passkeyClient, PASSKEYS } from '../helpers/passkey-client.js';

// Passkeys (docs/api.md, "Passkeys"): discoverable WebAuthn credentials, registration, sign-in
// complete on its own, and the user's own credential list. Hostile cases: passkeys-hostile.test.ts.
let t: TestApp;
let admin: string;
const { call, register, loginOptions, loginWith, expectNoPublicKeys } = passkeyClient(() => t);

describe('passkeys', () => {
  useAdminApp(
    () => startTestApp(PASSKEYS),
    (app, token) => {
      t = app;
      admin = token;
    },
  );

  it('status is public and names the relying party', async () => {
    const res = await call('GET', '/status');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { enabled: true, rpId: 'localhost', rpName: 'Vellum' } });
  });

  it('registration options: challenge, rp, user, ES256 and RS256, resident key required', async () => {
    const res = await call('POST', '/register/options', {}, admin);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data;
    expect(o.challenge).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(o.rp).toEqual({ id: 'localhost', name: 'Vellum' });
    expect(o.user).toMatchObject({ name: ADMIN.username, displayName: expect.any(String), id: expect.any(String) });
    expect(o.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual(expect.arrayContaining([-7, -257]));
    expect(o.authenticatorSelection.residentKey).toBe('required');
  });

  it('the options endpoints take an empty body or none', async () => {
    const none = await t.request({ method: 'POST', url: '/api/auth/passkey/login/options' });
    expect(none.statusCode, none.body).toBe(200);
    const mine = await t.request({ method: 'POST', url: '/api/auth/passkey/register/options', token: admin });
    expect(mine.statusCode, mine.body).toBe(200);
    expectSpecError(await call('POST', '/login/options', { allowCredentials: [] }), 422, 'VALIDATION_ERROR');
  });

  it('registration needs a session: anonymous is 401', async () => {
    expectUnauthorized(await call('POST', '/register/options', {}));
  });

  it('full registration then sign-in: the tokens work on /auth/me, no second factor', async () => {
    const { key, credential } = await register(admin, undefined, 'Laptop');
    expect(credential).toEqual({
      id: key.id,
      name: 'Laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
      deviceType: 'singleDevice',
      backedUp: false,
      transports: ['internal'],
    });
    const options = await loginOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.rpId).toBe('localhost');
    const res = await call('POST', '/login/verify', { response: key.assert(options), deviceId: 'browser-1' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().data;
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'refreshToken', 'token', 'user']);
    expect(body.user.username).toBe(ADMIN.username);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: body.token });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.username).toBe(ADMIN.username);
    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: body.refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    const list = (await call('GET', '/credentials', undefined, admin)).json().data;
    expect(list.find((c: { id: string }) => c.id === key.id).lastUsedAt).toEqual(expect.any(String));
  });

  it('a passkey is both factors: with mfaRequired on, a user without a method still gets tokens from a passkey', async () => {
    const editor = await t.userToken('editor');
    const me = (await t.request({ method: 'GET', url: '/api/auth/me', token: editor })).json().data;
    const { key } = await register(editor);
    const on = await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    expect(on.statusCode, on.body).toBe(200);
    try {
      const password = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: 'user-password-1' },
      });
      expect(password.json().data.requiresMFASetup).toBe(true);
      const res = await loginWith(key);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json().data).sort()).toEqual(['expiresAt', 'refreshToken', 'token', 'user']);
      expect(res.json().data.user.username).toBe(me.username);
    } finally {
      await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });

  it('audit: passkeyAdd, login with method passkey, passkeyRemove', async () => {
    const { key } = await register(admin);
    expect((await loginWith(key)).statusCode).toBe(200);
    expect((await call('DELETE', `/credentials/${key.id}`, undefined, admin)).statusCode).toBe(200);
    const audit = async (type: string) => {
      const res = await t.request({ method: 'GET', url: `/api/audit?type=${type}`, token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { details: Record<string, unknown> | null }[];
    };
    expect((await audit('passkeyAdd')).some((r) => r.details?.credentialId === key.id)).toBe(true);
    expect((await audit('passkeyRemove')).some((r) => r.details?.credentialId === key.id)).toBe(true);
    expect((await audit('login')).some((r) => r.details?.method === 'passkey')).toBe(true);
  });

  it('the same authenticator credential registered twice: 409 CONFLICT', async () => {
    const { key } = await register(admin);
    const options = (await call('POST', '/register/options', {}, admin)).json().data;
    expectSpecError(await call('POST', '/register/verify', { response: key.register(options) }, admin), 409, 'CONFLICT');
  });

  it('an API token cannot manage passkeys: 403 FORBIDDEN', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'pk', permissions: ['content:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const apiToken = created.json().data.token;
    expectSpecError(await call('POST', '/register/options', {}, apiToken), 403, 'FORBIDDEN');
    expectSpecError(await call('GET', '/credentials', undefined, apiToken), 403, 'FORBIDDEN');
  });

  it("excludeCredentials lists the user's passkeys", async () => {
    const { key } = await register(admin);
    const o = (await call('POST', '/register/options', {}, admin)).json().data;
    const ids = o.excludeCredentials.map((c: { id: string }) => c.id);
    expect(ids).toContain(key.id);
    const mine = (await call('GET', '/credentials', undefined, admin)).json().data.map((c: { id: string }) => c.id);
    expect(ids.sort()).toEqual(mine.sort());
  });

  it('list, rename and delete credentials; another user sees none and gets 404 on mine', async () => {
    const { key } = await register(admin, undefined, 'Phone');
    const list = await call('GET', '/credentials', undefined, admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { id: string }) => c.id)).toContain(key.id);

    const renamed = await call('PATCH', `/credentials/${key.id}`, { name: 'Work phone' }, admin);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ id: key.id, name: 'Work phone' });

    const other = await t.userToken('editor');
    expect((await call('GET', '/credentials', undefined, other)).json()).toEqual({ data: [] });
    expectSpecError(await call('PATCH', `/credentials/${key.id}`, { name: 'Mine now' }, other), 404, 'NOT_FOUND');
    expectSpecError(await call('DELETE', `/credentials/${key.id}`, undefined, other), 404, 'NOT_FOUND');

    const removed = await call('DELETE', `/credentials/${key.id}`, undefined, admin);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ data: { success: true } });
    expect((await call('GET', '/credentials', undefined, admin)).json().data.map((c: { id: string }) => c.id)).not.toContain(key.id);
    expectSpecError(await call('DELETE', `/credentials/${key.id}`, undefined, admin), 404, 'NOT_FOUND');
    // A removed passkey no longer signs in.
    expectUnauthorized(await loginWith(key));
  });

  it("a deleted user's passkeys go with them: no sign-in, the authenticator may register anew", async () => {
    const other = await t.userToken('editor');
    const { key } = await register(other);
    const id = (await t.request({ method: 'GET', url: '/api/auth/me', token: other })).json().data.id;
    expect((await t.request({ method: 'DELETE', url: `/api/users/${id}`, token: admin })).statusCode).toBe(200);
    expectUnauthorized(await loginWith(key));
    await register(admin, key);
  });

  it('a second user registers and signs in as themselves', async () => {
    const other = await t.userToken('editor');
    const { key } = await register(other);
    const res = await loginWith(key);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.role).toBe('editor');
  });

  it('no response ever contains a public key', () => {
    expectNoPublicKeys();
  });
});
