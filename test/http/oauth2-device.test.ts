import { createServer } from 'node:net';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { DEVICE_GRANT, form } from '../helpers/oauth2.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The device flow (RFC 8628) driven by an independent client, oauth4webapi, over real HTTP: each
// error string and status as RFC 8628 §3.5, RFC 6749 §5.2 and RFC 7009 §2.2 have them
// (docs/oauth2.md, "Device flow", "Refresh and revocation").

/** Every scope, in the order of the spec's "OAuth 2.0 scopes" table, as an OAuth scope string (RFC 6749 §3.3). */
const EVERY_SCOPE = 'openid profile offline_access content:read content:write content:delete content:publish media:read media:write'.split(
  ' ',
);
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const cli: oauth.Client = { client_id: 'service-cli' };
const tv: oauth.Client = { client_id: 'tv' };
const kiosk: oauth.Client = { client_id: 'kiosk' };
const KIOSK_SECRET = 'kiosk-secret-9f8e7d6c5b4a39281706f5e4d3c2b1a0';

let t: TestApp;
let admin: string;
let issuer: string;
let as: oauth.AuthorizationServer;
/** The app's clock: tests move it to cross intervals and lifetimes. */
let clock = Date.parse('2026-03-01T09:00:00.000Z');
const advance = (seconds: number) => (clock += seconds * 1000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startDevice(scope?: string, client = cli) {
  const res = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), scope ? { scope } : {}, insecure);
  return oauth.processDeviceAuthorizationResponse(as, client, res);
}

/** One poll of the token endpoint: the tokens, or the RFC error string with its status. */
async function poll(deviceCode: string, client = cli) {
  const res = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), deviceCode, insecure);
  try {
    return { status: res.status, tokens: await oauth.processDeviceCodeResponse(as, client, res), headers: res.headers };
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError) return { status: err.status, error: err.error, headers: res.headers };
    throw err;
  }
}

async function refresh(refreshToken: string) {
  const res = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), refreshToken, insecure);
  try {
    return { status: res.status, tokens: await oauth.processRefreshTokenResponse(as, cli, res) };
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError) return { status: err.status, error: err.error };
    throw err;
  }
}

const decide = (userCode: string, action: 'approve' | 'deny', token = admin, scopes?: string[]) =>
  t.request({
    method: 'POST',
    url: '/api/auth/device/verify',
    token,
    payload: { user_code: userCode, action, ...(scopes ? { scopes } : {}) },
  });

async function approved(scope: string, scopes?: string[]) {
  const device = await startDevice(scope);
  expect((await decide(device.user_code, 'approve', admin, scopes)).statusCode).toBe(200);
  const got = await poll(device.device_code);
  if (!got.tokens) throw new Error(`no tokens: ${got.error}`);
  return got.tokens as oauth.TokenEndpointResponse & { refresh_token: string };
}

const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

describe('device flow with oauth4webapi', () => {
  useAdminApp(
    async () => {
      const port = await freePort();
      issuer = `http://127.0.0.1:${port}`;
      const app = await startTestApp(
        {
          schemas: TEST_SCHEMAS,
          oauth2: {
            enabled: true,
            issuer,
            clients: [
              { clientId: 'tv', name: 'Living-room TV', grants: ['device_code', 'refresh_token'], scopes: ['content:read'] },
              { clientId: 'web', redirectUris: ['https://app.example.com/cb'] },
              { clientId: 'kiosk', clientSecret: KIOSK_SECRET, grants: ['device_code', 'refresh_token'] },
            ],
          },
        },
        { now: () => new Date(clock) },
      );
      await app.app.server.listen({ port, host: '127.0.0.1' });
      return app;
    },
    (app, token) => ((t = app), (admin = token)),
  );

  it('discovery: RFC 8414 metadata at the root and under /api, issuer checked by the client', async () => {
    const res = await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure });
    as = await oauth.processDiscoveryResponse(new URL(issuer), res);
    expect(as).toEqual({
      issuer,
      authorization_endpoint: `${issuer}/api/auth/authorize`,
      token_endpoint: `${issuer}/api/auth/token`,
      device_authorization_endpoint: `${issuer}/api/auth/device`,
      revocation_endpoint: `${issuer}/api/auth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_GRANT],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: EVERY_SCOPE,
      authorization_response_iss_parameter_supported: true,
    });
    const underApi = await t.request({ method: 'GET', url: '/api/.well-known/oauth-authorization-server' });
    expect(underApi.json()).toEqual(as);
  });

  it('device authorization: user code XXXX-XXXX of consonants, the studio URI, 600 s, interval 5', async () => {
    const d = await startDevice('content:read media:read');
    expect(d.user_code).toMatch(USER_CODE);
    expect(d.device_code).toMatch(/^vdc_[A-Za-z0-9]{43}$/);
    expect(d.verification_uri).toBe(`${issuer}/studio/auth/device`);
    expect(d.verification_uri_complete).toBe(`${issuer}/studio/auth/device?code=${d.user_code}`);
    expect(d.expires_in).toBe(600);
    expect(d.interval).toBe(5);
    // JSON bodies are accepted too; no scope means every scope of the client.
    const json = await t.request({ method: 'POST', url: '/api/auth/device', payload: { client_id: 'service-cli' } });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['cache-control']).toBe('no-store');
    const view = await t.request({ method: 'GET', url: `/api/auth/device/verify?code=${json.json().user_code}`, token: admin });
    expect(view.json().data.scopes).toEqual(EVERY_SCOPE);
  });

  it('device authorization errors: unknown client 401 invalid_client, bad scope invalid_scope, a client without the grant unauthorized_client', async () => {
    const ask = (body: Record<string, string>) => t.request({ method: 'POST', url: '/api/auth/device', ...form(body) });
    const expectRfc = (res: Awaited<ReturnType<typeof ask>>, status: number, error: string) => {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ error, error_description: expect.any(String) });
    };
    expectRfc(await ask({ client_id: 'nobody' }), 401, 'invalid_client');
    expectRfc(await ask({}), 401, 'invalid_client');
    expectRfc(await ask({ client_id: 'service-cli', scope: 'admin' }), 400, 'invalid_scope');
    expectRfc(await ask({ client_id: 'tv', scope: 'content:write' }), 400, 'invalid_scope');
    expectRfc(await ask({ client_id: 'web' }), 400, 'unauthorized_client');
    // A registered client allowed the grant gets its own scopes by default.
    const d = await startDevice(undefined, tv);
    const view = await t.request({ method: 'GET', url: `/api/auth/device/verify?code=${d.user_code}`, token: admin });
    expect(view.json().data).toMatchObject({ client: { id: 'tv', name: 'Living-room TV' }, scopes: ['content:read'] });
  });

  it('pending: 400 authorization_pending; polling early: 400 slow_down, and the grown interval holds for the next poll', async () => {
    const a = await startDevice('content:read');
    const b = await startDevice('content:read');
    expect(await poll(a.device_code)).toMatchObject({ status: 400, error: 'authorization_pending' });
    expect(await poll(b.device_code)).toMatchObject({ status: 400, error: 'authorization_pending' });
    advance(1);
    expect(await poll(a.device_code)).toMatchObject({ status: 400, error: 'slow_down' });
    expect(await poll(b.device_code)).toMatchObject({ status: 400, error: 'slow_down' });
    // RFC 8628 §3.5: the interval is now 10 s for this code. The old 5 s is not enough…
    advance(5);
    expect(await poll(a.device_code)).toMatchObject({ status: 400, error: 'slow_down' });
    // …5 s more than the old interval is (b was last polled 10 s ago).
    advance(5);
    expect(await poll(b.device_code)).toMatchObject({ status: 400, error: 'authorization_pending' });
  });

  it('approve: the user looks the code up (any case, with or without the dash), approves, the device gets tokens once', async () => {
    const d = await startDevice('content:read media:read');
    const raw = d.user_code.replace('-', '');
    for (const typed of [d.user_code.toLowerCase(), raw, ` ${raw.slice(0, 4).toLowerCase()}-${raw.slice(4)} `]) {
      const view = await t.request({ method: 'GET', url: `/api/auth/device/verify?code=${encodeURIComponent(typed)}`, token: admin });
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json()).toEqual({
        data: {
          userCode: d.user_code,
          client: { id: 'service-cli', name: 'Vellum CLI' },
          scopes: ['content:read', 'media:read'],
          expiresAt: new Date(clock + 600_000).toISOString(),
        },
      });
    }
    expect((await decide(raw.toLowerCase(), 'approve')).json()).toEqual({ data: { success: true } });
    const got = await poll(d.device_code);
    expect(got.status).toBe(200);
    expect(got.tokens).toMatchObject({ token_type: 'bearer', scope: 'content:read media:read', expires_in: 900 });
    expect(got.tokens?.refresh_token).toMatch(/^vor_/);
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(got.headers.get('pragma')).toBe('no-cache');
    expect((await me(got.tokens?.access_token as string)).json().data.username).toBe('admin');
    // Redeemed once: the next poll is invalid_grant, and the code is no longer pending for users.
    expect(await poll(d.device_code)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expectSpecError(await decide(d.user_code, 'approve'), 404, 'NOT_FOUND');
  });

  it('two racing polls of an approved code: one gets tokens, the other invalid_grant', async () => {
    const d = await startDevice('content:read');
    await decide(d.user_code, 'approve');
    const both = await Promise.all([poll(d.device_code), poll(d.device_code)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.status === 400)?.error).toBe('invalid_grant');
  });

  it('the approver narrows the scopes: the token carries the narrowed set and its rights follow', async () => {
    const d = await startDevice('content:read content:write');
    expectSpecError(await decide(d.user_code, 'approve', admin, ['content:read', 'media:write']), 400, 'INVALID_INPUT');
    const tokens = await (async () => {
      expect((await decide(d.user_code, 'approve', admin, ['content:read'])).statusCode).toBe(200);
      return (await poll(d.device_code)).tokens as oauth.TokenEndpointResponse;
    })();
    expect(tokens.scope).toBe('content:read');
    const token = tokens.access_token;
    expect((await t.request({ method: 'GET', url: '/api/collections/company', token })).statusCode).toBe(200);
    expectSpecError(await t.request({ method: 'POST', url: '/api/documents/company', token, payload: { name: 'x' } }), 403, 'FORBIDDEN');
  });

  it('deny: 400 access_denied, and the decision is final', async () => {
    const d = await startDevice('content:read');
    expect((await decide(d.user_code, 'deny')).json()).toEqual({ data: { success: true } });
    expect(await poll(d.device_code)).toMatchObject({ status: 400, error: 'access_denied' });
    expectSpecError(await decide(d.user_code, 'approve'), 404, 'NOT_FOUND');
    expect(await poll(d.device_code)).toMatchObject({ status: 400, error: 'access_denied' });
  });

  it('expiry: after 600 s the device gets 400 expired_token and the user 404', async () => {
    const d = await startDevice('content:read');
    advance(601);
    admin = await t.login('admin', 'admin-password-1');
    expect(await poll(d.device_code)).toMatchObject({ status: 400, error: 'expired_token' });
    expectSpecError(await t.request({ method: 'GET', url: `/api/auth/device/verify?code=${d.user_code}`, token: admin }), 404, 'NOT_FOUND');
  });

  it('unknown device codes and codes of another client: 400 invalid_grant', async () => {
    expect(await poll('vdc_unknown')).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(await poll('not-even-ours')).toMatchObject({ status: 400, error: 'invalid_grant' });
    const d = await startDevice('content:read');
    await decide(d.user_code, 'approve');
    expect(await poll(d.device_code, tv)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect((await poll(d.device_code)).status).toBe(200);
  });

  it('refresh: rotation; the old refresh token again is invalid_grant, and then the new one and the access token are dead too', async () => {
    const first = await approved('content:read');
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const next = second.tokens as oauth.TokenEndpointResponse & { refresh_token: string };
    expect(next.refresh_token).toMatch(/^vor_/);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect(next.scope).toBe('content:read');
    expect((await me(next.access_token)).statusCode).toBe(200);
    // RFC 9700 §4.14.2: a spent refresh token presented again revokes the grant.
    expect(await refresh(first.refresh_token)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(await refresh(next.refresh_token)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expectSpecError(await me(next.access_token), 401, 'UNAUTHORIZED');
    expectSpecError(await me(first.access_token), 401, 'UNAUTHORIZED');
  });

  it('revocation (RFC 7009): a refresh token or an access token revokes its grant; unknown tokens get 200 too', async () => {
    const byRefresh = await approved('content:read');
    const revoke = (token: string, client = cli) =>
      oauth.revocationRequest(as, client, oauth.None(), token, insecure).then((r) => oauth.processRevocationResponse(r));
    await revoke(byRefresh.refresh_token);
    expectSpecError(await me(byRefresh.access_token), 401, 'UNAUTHORIZED');
    expect(await refresh(byRefresh.refresh_token)).toMatchObject({ status: 400, error: 'invalid_grant' });

    const byAccess = await approved('content:read');
    await revoke(byAccess.access_token);
    expectSpecError(await me(byAccess.access_token), 401, 'UNAUTHORIZED');
    expect(await refresh(byAccess.refresh_token)).toMatchObject({ status: 400, error: 'invalid_grant' });

    await revoke('vor_never-issued');
    await revoke('anything at all');
    // Another client's token: 200, and nothing is revoked.
    const kept = await approved('content:read');
    await revoke(kept.refresh_token, tv);
    expect((await me(kept.access_token)).statusCode).toBe(200);
    const raw = await t.request({
      method: 'POST',
      url: '/api/auth/revoke',
      ...form({ client_id: 'service-cli', token: 'x', token_type_hint: 'refresh_token' }),
    });
    expect(raw.statusCode).toBe(200);
    expect(raw.json()).toEqual({});
    expect(raw.headers['cache-control']).toBe('no-store');
  });

  it('a confidential client authenticates at the device, token and revocation endpoints (Basic or post); without its secret 401 invalid_client', async () => {
    const noSecret = await t.request({ method: 'POST', url: '/api/auth/device', ...form({ client_id: 'kiosk' }) });
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.json().error).toBe('invalid_client');
    const res = await oauth.deviceAuthorizationRequest(
      as,
      kiosk,
      oauth.ClientSecretBasic(KIOSK_SECRET),
      { scope: 'content:read' },
      insecure,
    );
    const d = await oauth.processDeviceAuthorizationResponse(as, kiosk, res);
    const pending = await oauth.deviceCodeGrantRequest(as, kiosk, oauth.ClientSecretPost(KIOSK_SECRET), d.device_code, insecure);
    await expect(oauth.processDeviceCodeResponse(as, kiosk, pending)).rejects.toMatchObject({
      status: 400,
      error: 'authorization_pending',
    });
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: DEVICE_GRANT, device_code: d.device_code, client_id: 'kiosk', client_secret: 'x'.repeat(40) }),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_client');
    const revokeWrong = await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ client_id: 'kiosk', token: 'x' }) });
    expect(revokeWrong.statusCode).toBe(401);
    expect(revokeWrong.json().error).toBe('invalid_client');
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, kiosk, oauth.ClientSecretBasic(KIOSK_SECRET), 'x', insecure));
  });

  it('revocation errors: an unknown client 401 invalid_client, no token 400 invalid_request', async () => {
    const unknown = await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ client_id: 'nobody', token: 'x' }) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    const none = await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ client_id: 'service-cli' }) });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });
});
