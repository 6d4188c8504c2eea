import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { expectUnauthorized, passkeyClient, PASSKEYS } from '../helpers/passkey-client.js';
import type { SoftwareAuthenticator } from '../helpers/software-authenticator.js';

// Passkeys under attack (docs/api.md, "Passkeys"): a forged assertion is 401 whatever was forged,
// a forged registration 400; challenges expire and are spent once; failures spend the client IP;
// with passkeys off everything but the status is 501.
let t: TestApp;
let admin: string;
const pk = passkeyClient(() => t);
const { call, newAuthenticator, register, loginOptions, loginWith } = pk;

describe('passkeys under attack', () => {
  useAdminApp(
    () => startTestApp(PASSKEYS),
    (app, token) => {
      t = app;
      admin = token;
    },
  );

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
    pk.expectNoPublicKeys();
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
      pk.ip.pinned = '10.99.0.1';
      const key = newAuthenticator();
      for (let i = 0; i < 3; i++) expectUnauthorized(await loginWith(key));
      const res = await loginWith(key);
      const err = expectSpecError(res, 429, 'RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(err.retryAfter).toBeGreaterThan(0);
    } finally {
      pk.ip.pinned = undefined;
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
