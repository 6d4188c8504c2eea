import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkce, createState, VellumApiError, VellumClient, type ClientTokens } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * The typed client's OAuth calls (docs/client.md) against the real authorization server: the
 * device flow as `vellum login` uses it, OAuth refresh on a 401, revocation, and the
 * authorization-code flow with PKCE from both sides (the app and the consent page).
 */
let clock = Date.parse('2026-06-01T10:00:00.000Z');
let t: TestApp;
let base: string;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  t = await startTestApp(
    {
      schemas: TEST_SCHEMAS,
      oauth2: { enabled: true, accessTokenTtl: '5m', clients: [{ clientId: 'web-app', name: 'Web app', redirectUris: [REDIRECT] }] },
    },
    { now: () => new Date(clock) },
  );
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
});
afterAll(() => t?.close());

/** A client on the test clock whose waits move the clock instead of sleeping; it counts its requests. */
function client(opts: { onTokens?: (t: ClientTokens | undefined) => void } = {}) {
  const calls: string[] = [];
  const c = new VellumClient({
    baseUrl: base,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    fetch: async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
    onTokens: opts.onTokens,
  });
  return { c, calls };
}

async function adminClient() {
  const { c } = client();
  await c.auth.login(ADMIN.username, ADMIN.password);
  return c;
}

describe('the client and the authorization server', () => {
  it('device flow: start, the user approves, polling ends in OAuth tokens the client then uses', async () => {
    const { c, calls } = client();
    const admin = await adminClient();
    const auth = await c.oauth.startDeviceAuthorization({ scope: ['content:read', 'content:write'] });
    expect(auth.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await admin.oauth.deviceRequest(auth.user_code.toLowerCase())).client).toEqual({ id: 'service-cli', name: 'Vellum CLI' });
    let polls = 0;
    let approved: Promise<void> | undefined;
    const tokens = c.oauth.pollDeviceToken(auth, {
      onPoll: () => {
        // Approve after the first pending answer; the poll goes on meanwhile, the approval is awaited below.
        if (++polls === 1) approved = admin.oauth.approveDevice(auth.user_code, 'approve');
      },
    });
    const held = await tokens;
    await approved;
    expect(held).toMatchObject({ kind: 'oauth', clientId: 'service-cli', scope: 'content:read content:write' });
    expect(held.refreshToken).toMatch(/^vor_/);
    expect(polls).toBeGreaterThanOrEqual(1);
    expect((await c.auth.me()).username).toBe(ADMIN.username);
    expect(calls.filter((x) => x === 'POST /api/auth/token').length).toBe(polls + 1);
  });

  it('a denied device request rejects with the typed error access_denied', async () => {
    const { c } = client();
    const admin = await adminClient();
    const auth = await c.oauth.startDeviceAuthorization();
    await admin.oauth.approveDevice(auth.user_code, 'deny');
    const err = await c.oauth.pollDeviceToken(auth).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VellumApiError);
    expect(err).toMatchObject({ status: 400, code: 'access_denied' });
  });

  it('an expired OAuth access token is refreshed on the 401 with the rotating refresh token; a 403 is not', async () => {
    const seen: Array<ClientTokens | undefined> = [];
    const { c, calls } = client({ onTokens: (x) => void seen.push(x) });
    const admin = await adminClient();
    const auth = await c.oauth.startDeviceAuthorization({ scope: 'content:read' });
    await admin.oauth.approveDevice(auth.user_code, 'approve');
    const first = await c.oauth.pollDeviceToken(auth);
    clock += 6 * 60_000; // past the 5-minute access token
    expect((await c.auth.me()).username).toBe(ADMIN.username);
    const refreshes = calls.filter((x) => x === 'POST /api/auth/token').length;
    const now = seen.at(-1);
    expect(now?.refreshToken).toMatch(/^vor_/);
    expect(now?.refreshToken).not.toBe(first.refreshToken);
    // The scope leaves writing out: 403, and no refresh for it.
    const denied = await c
      .documents('company')
      .create({ name: 'Nope' })
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(calls.filter((x) => x === 'POST /api/auth/token').length).toBe(refreshes);
  });

  it('revoking the held tokens ends the grant: the access token is refused afterwards', async () => {
    const { c } = client();
    const admin = await adminClient();
    const auth = await c.oauth.startDeviceAuthorization();
    await admin.oauth.approveDevice(auth.user_code, 'approve');
    const { accessToken } = await c.oauth.pollDeviceToken(auth);
    expect((await admin.oauth.listGrants()).length).toBeGreaterThan(0);
    await c.oauth.revokeToken();
    const other = new VellumClient({ baseUrl: base, token: accessToken });
    expect(await other.auth.me().catch((e: unknown) => e)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('authorization code with PKCE: the consent page reads and approves, the app exchanges the code', async () => {
    const admin = await adminClient();
    const { c: app } = client();
    const pkce = await createPkce();
    const params = {
      clientId: 'web-app',
      redirectUri: REDIRECT,
      scope: 'content:read',
      state: createState(),
      codeChallenge: pkce.challenge,
    };
    const url = new URL(app.authorizationCode.authorizationUrl(params));
    expect(url.pathname).toBe('/api/auth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const request = await admin.authorizationCode.authorizationRequest(params);
    expect(request).toEqual({
      client: { id: 'web-app', name: 'Web app' },
      scopes: ['content:read'],
      redirectUri: REDIRECT,
      state: params.state,
    });
    const back = new URL(await admin.authorizationCode.decide(params, 'approve'));
    expect(back.searchParams.get('state')).toBe(params.state);
    const tokens = await app.authorizationCode.exchangeCode({
      code: back.searchParams.get('code') as string,
      redirectUri: REDIRECT,
      codeVerifier: pkce.verifier,
      clientId: 'web-app',
    });
    expect(tokens).toMatchObject({ kind: 'oauth', clientId: 'web-app', scope: 'content:read' });
    expect((await app.auth.me()).username).toBe(ADMIN.username);
    const denied = new URL(await admin.authorizationCode.decide(params, 'deny'));
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });
});
