import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { CLIENT_ID, useOidcProvider } from '../helpers/oidc-provider.js';
import { enableTotp } from '../helpers/totp.js';

// Identity-provider sign-in (docs/api.md, "Identity provider") against a real OpenID provider on
// 127.0.0.1: link, sign-in, unlink, autoCreateUsers, MFA. Hostile cases: idp-hostile.test.ts.
const idp = useOidcProvider();
let t: TestApp;
let admin: string;
let n = 0;
const PASSWORD = 'idp-password-1';

/** A user with a password and a session token. */
async function newUser(): Promise<{ id: string; username: string; token: string }> {
  const username = `idp${++n}`;
  const id = await createUser(t, admin, { username, password: PASSWORD });
  return { id, username, token: await t.login(username, PASSWORD) };
}

const status = (token?: string) => t.request({ method: 'GET', url: '/api/auth/oauth/status', token });
const unlink = (token?: string) => t.request({ method: 'DELETE', url: '/api/auth/oauth/idp/unlink', token });
const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

describe('identity provider', () => {
  useAdminApp(
    () => startTestApp(idp.config()),
    (app, token) => ((t = app), (admin = token)),
  );

  it('status is public: enabled, one provider named after the issuer; linked only with a session', async () => {
    const res = await status();
    expect(res.statusCode).toBe(200);
    const name = new URL(idp.issuer()).hostname;
    expect(res.json()).toEqual({ data: { enabled: true, providers: [{ id: 'idp', name }] } });
    const mine = await status(admin);
    expect(mine.json()).toEqual({ data: { enabled: true, providers: [{ id: 'idp', name }], linked: false } });
  });

  it('init: an authorization URL with code, PKCE S256, nonce, state, client and redirect', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const { authorizationUrl, state } = res.json().data;
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer());
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('redirect_uri')).toBe('http://localhost:5173/studio/auth/idp/callback');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('state')).toBe(state);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
  });

  it('link with a session, then sign in with the provider: tokens that work on /auth/me', async () => {
    const user = await newUser();
    const link = await idp.flow(t, { sub: 'link-then-login', mode: 'link', token: user.token });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toEqual({ data: { linked: true } });
    expect((await status(user.token)).json().data.linked).toBe(true);

    const login = await idp.flow(t, { sub: 'link-then-login' });
    expect(login.statusCode, login.body).toBe(200);
    const data = login.json().data;
    expect(data).toEqual({
      token: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(String),
      user: expect.any(Object),
    });
    expect(data.user.id).toBe(user.id);
    const who = await me(data.token);
    expect(who.statusCode).toBe(200);
    expect(who.json().data.username).toBe(user.username);
  });

  it('link without a session is 401', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', payload: { mode: 'link' } });
    expectSpecError(res, 401, 'UNAUTHORIZED');
  });

  it('a provider account linked to no user cannot sign in without autoCreateUsers: 403', async () => {
    const res = await idp.flow(t, { sub: 'nobody-linked-this' });
    expectSpecError(res, 403, 'FORBIDDEN');
  });

  it('linking a provider account already linked to another user is 409', async () => {
    const first = await newUser();
    const second = await newUser();
    expect((await idp.flow(t, { sub: 'shared-account', mode: 'link', token: first.token })).statusCode).toBe(200);
    expectSpecError(await idp.flow(t, { sub: 'shared-account', mode: 'link', token: second.token }), 409, 'CONFLICT');
    expect((await status(second.token)).json().data.linked).toBe(false);
  });

  it('unlink: success for a user with a password; the provider then no longer signs them in', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'unlink-me', mode: 'link', token: user.token })).statusCode).toBe(200);
    const res = await unlink(user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { success: true } });
    expect((await status(user.token)).json().data.linked).toBe(false);
    expectSpecError(await idp.flow(t, { sub: 'unlink-me' }), 403, 'FORBIDDEN');
    expectSpecError(await unlink(user.token), 404, 'NOT_FOUND');
    expectSpecError(await unlink(), 401, 'UNAUTHORIZED');
  });

  it('a user with TOTP enabled gets requiresMFA from the callback, not tokens', async () => {
    const user = await newUser();
    await enableTotp(t, user.token);
    expect((await idp.flow(t, { sub: 'with-totp', mode: 'link', token: user.token })).statusCode).toBe(200);

    const res = await idp.flow(t, { sub: 'with-totp' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: { requiresMFA: true, mfaToken: expect.any(String), methods: ['totp'], expiresAt: expect.any(String) },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('an inactive user cannot sign in with the provider: 401', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'inactive-user', mode: 'link', token: user.token })).statusCode).toBe(200);
    const off = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: admin, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    expectSpecError(await idp.flow(t, { sub: 'inactive-user' }), 401, 'UNAUTHORIZED');
  });

  it('a user who has a provider account linked cannot link a second one: 409', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'first-account', mode: 'link', token: user.token })).statusCode).toBe(200);
    expectSpecError(await idp.flow(t, { sub: 'second-account', mode: 'link', token: user.token }), 409, 'CONFLICT');
    // Linking the same account again is no change.
    expect((await idp.flow(t, { sub: 'first-account', mode: 'link', token: user.token })).json()).toEqual({ data: { linked: true } });
  });

  it('an API token cannot start a link flow: 403', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'idp', permissions: ['users:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/oauth/idp/init',
      token: created.json().data.token,
      payload: { mode: 'link' },
    });
    expectSpecError(res, 403, 'FORBIDDEN');
  });

  it('audit: idpLink, login with method idp, idpUnlink', async () => {
    const user = await newUser();
    expect((await idp.flow(t, { sub: 'audited', mode: 'link', token: user.token })).statusCode).toBe(200);
    expect((await idp.flow(t, { sub: 'audited' })).statusCode).toBe(200);
    expect((await unlink(user.token)).statusCode).toBe(200);
    const res = await t.request({ method: 'GET', url: `/api/audit?limit=100`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json().data as { type: string; target?: string; details: Record<string, unknown> | null }[]).filter(
      (r) => r.target === user.id,
    );
    expect(mine.map((r) => r.type)).toEqual(expect.arrayContaining(['idpLink', 'idpUnlink']));
    expect(mine.some((r) => r.type === 'login' && r.details?.method === 'idp')).toBe(true);
  });
});

describe('identity provider with autoCreateUsers', () => {
  useAdminApp(
    () => startTestApp(idp.config({ autoCreateUsers: true, defaultRole: 'editor' })),
    (app, token) => ((t = app), (admin = token)),
  );

  it('creates the user with defaultRole and signs them in; unlinking their only way in is 409', async () => {
    const res = await idp.flow(t, { sub: 'new-person', email: 'New.Person@idp.example', extra: { preferred_username: 'new person' } });
    expect(res.statusCode, res.body).toBe(200);
    const { token, user } = res.json().data;
    expect(user).toMatchObject({ username: 'new-person', email: 'new.person@idp.example', role: 'editor', active: true });
    expect((await me(token)).json().data.id).toBe(user.id);
    // Signing in again finds the same user.
    const again = await idp.flow(t, { sub: 'new-person', email: 'New.Person@idp.example' });
    expect(again.json().data.user.id).toBe(user.id);
    // No password and no passkey: the provider is the only way in.
    expectSpecError(await unlink(token), 409, 'CONFLICT');
    expect((await status(token)).json().data.linked).toBe(true);
  });

  it('an address the provider did not verify makes no account: 403', async () => {
    const res = await idp.flow(t, { sub: 'unverified', email: 'unverified@idp.example', extra: { email_verified: false } });
    expectSpecError(res, 403, 'FORBIDDEN');
  });

  it('an address another user has is 409, never a silent link to that user', async () => {
    const res = await idp.flow(t, { sub: 'takes-admin-address', email: 'admin@example.com' });
    expectSpecError(res, 409, 'CONFLICT');
  });

  it('a taken username gets a suffix', async () => {
    const first = await idp.flow(t, { sub: 'twin-1', email: 'twin@one.example', extra: { preferred_username: 'twin' } });
    const second = await idp.flow(t, { sub: 'twin-2', email: 'twin@two.example', extra: { preferred_username: 'twin' } });
    expect(first.json().data.user.username).toBe('twin');
    expect(second.json().data.user.username).toBe('twin-2');
  });
});
