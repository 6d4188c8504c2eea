import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';

// Passkeys (docs/api.md, "Passkeys"): discoverable WebAuthn credentials, challenges kept
// server-side and spent once, the sign counter checked, a passkey sign-in complete on its own.
const ORIGIN = 'http://localhost:3000';
const RP = { origin: ORIGIN, rpId: 'localhost' };
const PASSKEYS = { security: { passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: ORIGIN } } };

let t: TestApp;
let admin: string;
/** Every body the passkey endpoints answered, to look for public keys in. */
const answered: string[] = [];
const keys: SoftwareAuthenticator[] = [];

// Failed passkey sign-ins count against the client IP's sign-in limit, which password sign-in
// shares: each assertion comes from an address of its own unless a test pins one.
let pinnedIp: string | undefined;
let ips = 0;
const clientIp = () => pinnedIp ?? `10.77.${Math.floor(++ips / 250)}.${ips % 250}`;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token?: string) {
  const remoteAddress = url === '/login/verify' ? clientIp() : undefined;
  const res = await t.request({ method, url: `/api/auth/passkey${url}`, payload: payload as never, token, remoteAddress });
  answered.push(res.body);
  return res;
}

function newAuthenticator(): SoftwareAuthenticator {
  const key = new SoftwareAuthenticator(RP);
  keys.push(key);
  return key;
}

async function register(token: string, key = newAuthenticator(), name?: string) {
  const options = (await call('POST', '/register/options', {}, token)).json().data;
  const res = await call('POST', '/register/verify', { response: key.register(options), ...(name && { name }) }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { key, credential: res.json().data };
}

async function loginOptions() {
  const res = await call('POST', '/login/options', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { challenge: string; rpId: string; allowCredentials: unknown[] };
}

async function loginWith(key: SoftwareAuthenticator, forge: Parameters<SoftwareAuthenticator['assert']>[1] = {}) {
  return call('POST', '/login/verify', { response: key.assert(await loginOptions(), forge) });
}

const expectUnauthorized = (res: LightMyRequestResponse) => expectSpecError(res, 401, 'UNAUTHORIZED');

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

  describe('hostile assertions are 401 UNAUTHORIZED', () => {
    it('a wrong origin', async () => {
      const { key } = await register(admin);
      expectUnauthorized(await loginWith(key, { origin: 'http://evil.localhost:3000' }));
    });

    it('a wrong rpId', async () => {
      const { key } = await register(admin);
      expectUnauthorized(await loginWith(key, { rpId: 'evil.example' }));
    });

    it('a replayed challenge (the same assertion twice)', async () => {
      const { key } = await register(admin);
      const response = key.assert(await loginOptions());
      expect((await call('POST', '/login/verify', { response })).statusCode).toBe(200);
      expectUnauthorized(await call('POST', '/login/verify', { response }));
    });

    it('a challenge the service never issued', async () => {
      const { key } = await register(admin);
      await loginOptions();
      expectUnauthorized(await loginWith(key, { challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmljZQ' }));
    });

    it('a sign counter that went backwards', async () => {
      const { key } = await register(admin);
      expect((await loginWith(key, { signCount: 10 })).statusCode).toBe(200);
      expectUnauthorized(await loginWith(key, { signCount: 5 }));
      // The counter stayed at 10: the next genuine assertion (11) passes.
      expect((await loginWith(key, { signCount: 11 })).statusCode).toBe(200);
    });

    it('a bad signature', async () => {
      const { key } = await register(admin);
      expectUnauthorized(await loginWith(key, { badSignature: true }));
    });

    it('a user handle naming someone else', async () => {
      const { key } = await register(admin);
      key.userHandle = Buffer.from('someone-else').toString('base64url');
      expectUnauthorized(await loginWith(key));
    });

    it('an unknown credential', async () => {
      expectUnauthorized(await loginWith(newAuthenticator()));
    });

    it('an inactive user', async () => {
      const other = await t.userToken('editor');
      const { key } = await register(other);
      const me = await t.request({ method: 'GET', url: '/api/auth/me', token: other });
      const id = me.json().data.id;
      const off = await t.request({ method: 'PUT', url: `/api/users/${id}`, payload: { active: false }, token: admin });
      expect(off.statusCode, off.body).toBe(200);
      expectUnauthorized(await loginWith(key));
    });
  });

  describe('hostile registrations are 400 INVALID_INPUT', () => {
    async function registerForged(forge: Parameters<SoftwareAuthenticator['register']>[1]) {
      const options = (await call('POST', '/register/options', {}, admin)).json().data;
      return call('POST', '/register/verify', { response: newAuthenticator().register(options, forge) }, admin);
    }

    it('a wrong origin', async () => {
      const err = expectSpecError(await registerForged({ origin: 'https://evil.example' }), 400, 'INVALID_INPUT');
      expect(err.message).toMatch(/origin/i);
    });

    it('a wrong rpId', async () => {
      const err = expectSpecError(await registerForged({ rpId: 'evil.example' }), 400, 'INVALID_INPUT');
      expect(err.message).toMatch(/RP ID/);
    });

    it('a challenge the service never issued', async () => {
      const err = expectSpecError(await registerForged({ challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmljZQ' }), 400, 'INVALID_INPUT');
      expect(err.message).toMatch(/challenge/);
    });

    it("another user's registration challenge", async () => {
      const other = await t.userToken('editor');
      const options = (await call('POST', '/register/options', {}, admin)).json().data;
      const res = await call('POST', '/register/verify', { response: newAuthenticator().register(options) }, other);
      expectSpecError(res, 400, 'INVALID_INPUT');
    });
  });

  it('no response ever contains a public key', () => {
    expect(answered.length).toBeGreaterThan(30);
    expect(keys.length).toBeGreaterThan(5);
    for (const key of keys) {
      const cose = key.cosePublicKey;
      for (const body of answered) {
        expect(body).not.toContain(cose.toString('base64url'));
        expect(body).not.toContain(cose.toString('base64'));
        expect(body).not.toContain(cose.subarray(-32).toString('base64url'));
      }
    }
    for (const body of answered) expect(body).not.toMatch(/public_?key/i);
  });
});

describe('passkey challenges last 5 minutes', () => {
  it('an assertion over a challenge older than 5 minutes is 401; a fresh one passes', async () => {
    const clock = { at: Date.parse('2030-01-01T00:00:00Z') };
    t = await startTestApp(PASSKEYS, { now: () => new Date(clock.at) });
    try {
      const { key } = await register(await t.login(ADMIN.username, ADMIN.password));
      const stale = await loginOptions();
      clock.at += 5 * 60_000 + 1000;
      expectUnauthorized(await call('POST', '/login/verify', { response: key.assert(stale) }));
      expect((await loginWith(key)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('passkey sign-in is rate limited per IP', () => {
  it('failed assertions spend the address: 429 RATE_LIMITED with Retry-After', async () => {
    t = await startTestApp({ security: { ...PASSKEYS.security, rateLimit: { login: { windowMs: 60_000, max: 3 } } } });
    try {
      pinnedIp = '10.99.0.1';
      const key = newAuthenticator();
      for (let i = 0; i < 3; i++) expectUnauthorized(await loginWith(key));
      const res = await loginWith(key);
      const err = expectSpecError(res, 429, 'RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(err.retryAfter).toBeGreaterThan(0);
    } finally {
      pinnedIp = undefined;
      await t.close();
    }
  });
});

describe('passkeys not enabled', () => {
  it('status says so; every other endpoint is 501 NOT_IMPLEMENTED, signed in or not', async () => {
    t = await startTestApp();
    try {
      const token = await t.login(ADMIN.username, ADMIN.password);
      const status = await call('GET', '/status');
      expect(status.statusCode).toBe(200);
      expect(status.json().data.enabled).toBe(false);
      const endpoints: [Parameters<typeof call>[0], string, unknown][] = [
        ['POST', '/register/options', {}],
        ['POST', '/register/verify', { response: newAuthenticator().register({ challenge: 'x', user: { id: 'x' } }) }],
        ['POST', '/login/options', {}],
        ['POST', '/login/verify', { response: newAuthenticator().assert({ challenge: 'x' }) }],
        ['GET', '/credentials', undefined],
        ['PATCH', '/credentials/abc', { name: 'x' }],
        ['DELETE', '/credentials/abc', undefined],
      ];
      for (const [method, url, payload] of endpoints) {
        expectSpecError(await call(method, url, payload, token), 501, 'NOT_IMPLEMENTED');
        expectSpecError(await call(method, url, payload), 501, 'NOT_IMPLEMENTED');
      }
    } finally {
      await t.close();
    }
  });
});
