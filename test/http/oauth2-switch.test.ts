import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';

// The authorization server's frame (docs/oauth2.md): 501 while `oauth2.enabled` is unset, and the
// token endpoint's errors in the RFC 6749 §5.2 shape, form-encoded or JSON.
let off: TestApp;
let offAdmin: string;
let on: TestApp;

const form = (body: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(body).toString(),
});

describe('oauth2.enabled unset', () => {
  useAdminApp(
    () => startTestApp(),
    (app, admin) => {
      off = app;
      offAdmin = admin;
    },
  );

  it('the token endpoint answers 501 NOT_IMPLEMENTED in the API error body', async () => {
    const res = await off.request({ method: 'POST', url: '/api/auth/token', ...form({ grant_type: 'refresh_token', refresh_token: 'x' }) });
    expectSpecError(res, 501, 'NOT_IMPLEMENTED');
  });

  it('the authorization endpoint answers 501 NOT_IMPLEMENTED, signed in or not, GET and POST', async () => {
    const query = 'response_type=code&client_id=spa&code_challenge_method=S256';
    for (const token of [undefined, offAdmin]) {
      expectSpecError(await off.request({ method: 'GET', url: `/api/auth/authorize?${query}`, token }), 501, 'NOT_IMPLEMENTED');
      const post = await off.request({
        method: 'POST',
        url: '/api/auth/authorize',
        token,
        payload: { client_id: 'spa', action: 'approve' },
      });
      expectSpecError(post, 501, 'NOT_IMPLEMENTED');
    }
  });

  it('the device flow, revocation, grants and the metadata answer 501 too, signed in or not', async () => {
    const admin = await off.login('admin', 'admin-password-1');
    const calls: Array<{ method: 'GET' | 'POST' | 'DELETE'; url: string; token?: string; body?: 'form' | 'json' }> = [
      { method: 'POST', url: '/api/auth/device', body: 'form' },
      { method: 'POST', url: '/api/auth/revoke', body: 'form' },
      { method: 'GET', url: '/api/auth/device/verify?code=BCDF-GHJK', token: admin },
      { method: 'POST', url: '/api/auth/device/verify', token: admin, body: 'json' },
      { method: 'GET', url: '/api/auth/device/verify?code=BCDF-GHJK' },
      { method: 'GET', url: '/api/auth/grants', token: admin },
      { method: 'GET', url: '/api/auth/grants' },
      { method: 'DELETE', url: '/api/auth/grants/some-id', token: admin },
      { method: 'GET', url: '/.well-known/oauth-authorization-server' },
      { method: 'GET', url: '/api/.well-known/oauth-authorization-server' },
    ];
    for (const c of calls) {
      const body =
        c.body === 'form'
          ? form({ client_id: 'service-cli', token: 'x' })
          : c.body === 'json'
            ? { payload: { user_code: 'BCDF-GHJK', action: 'approve' } }
            : {};
      const res = await off.request({ method: c.method, url: c.url, token: c.token, ...body });
      expect(`${c.method} ${c.url} ${res.statusCode}`).toBe(`${c.method} ${c.url} 501`);
      expectSpecError(res, 501, 'NOT_IMPLEMENTED');
    }
  });
});

describe('GET /config/studio says whether the authorization server is on', () => {
  // The studio asks for `GET /auth/grants` only when it is (docs/api.md, "Instance settings and studio configuration").
  it("off: features.oauth2 is false, whatever the config's studio.features says", async () => {
    const app = await startTestApp({ studio: { features: { oauth2: true } } });
    try {
      const res = await app.request({ method: 'GET', url: '/api/config/studio', token: await app.login('admin', 'admin-password-1') });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.features.oauth2).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('on: features.oauth2 is true', async () => {
    const app = await startTestApp({ oauth2: { enabled: true } });
    try {
      const res = await app.request({ method: 'GET', url: '/api/config/studio', token: await app.login('admin', 'admin-password-1') });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.features.oauth2).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('the token endpoint', () => {
  useAdminApp(
    () => startTestApp({ oauth2: { enabled: true } }),
    (app) => (on = app),
  );

  const token = (body: Record<string, string>, headers: Record<string, string> = {}) => {
    const f = form(body);
    return on.request({ method: 'POST', url: '/api/auth/token', headers: { ...f.headers, ...headers }, payload: f.payload });
  };
  const expectRfcError = (res: Awaited<ReturnType<typeof token>>, status: number, error: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error, error_description: expect.any(String) });
    expect(res.headers['cache-control']).toBe('no-store');
  };

  it('no grant_type: 400 invalid_request', async () => {
    expectRfcError(await token({ client_id: 'service-cli' }), 400, 'invalid_request');
  });

  it('an unknown grant type: 400 unsupported_grant_type', async () => {
    expectRfcError(await token({ client_id: 'service-cli', grant_type: 'password' }), 400, 'unsupported_grant_type');
  });

  it('an unknown client: 401 invalid_client with WWW-Authenticate', async () => {
    const res = await token({ client_id: 'nobody', grant_type: 'refresh_token', refresh_token: 'vor_x' });
    expectRfcError(res, 401, 'invalid_client');
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('the CLI client may not use the authorization_code grant: 400 unauthorized_client', async () => {
    const res = await token({
      client_id: 'service-cli',
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'http://127.0.0.1/cb',
      code_verifier: 'v',
    });
    expectRfcError(res, 400, 'unauthorized_client');
  });

  it('an unknown refresh token: 400 invalid_grant; JSON bodies are accepted too', async () => {
    expectRfcError(
      await token({ client_id: 'service-cli', grant_type: 'refresh_token', refresh_token: 'vor_unknown' }),
      400,
      'invalid_grant',
    );
    const json = await on.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { client_id: 'service-cli', grant_type: 'refresh_token', refresh_token: 'vor_unknown' },
    });
    expectRfcError(json, 400, 'invalid_grant');
  });

  it('a parameter sent twice: 400 invalid_request (RFC 6749 §3.1)', async () => {
    const res = await on.request({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&grant_type=refresh_token&client_id=service-cli',
    });
    expectRfcError(res, 400, 'invalid_request');
  });

  it('a malformed Basic header: 401 invalid_client', async () => {
    const res = await token({ grant_type: 'refresh_token', refresh_token: 'vor_x' }, { authorization: 'Basic !!!' });
    expectRfcError(res, 401, 'invalid_client');
  });
});
