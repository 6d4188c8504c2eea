import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The authorization-code flow with PKCE (docs/oauth2.md, "Authorization code with PKCE"; RFC 6749 §4.1,
// RFC 7636), driven by oauth4webapi as an independent client over real HTTP. Each error is checked
// against the RFC's string and status.

const ISSUER = 'https://vellum.example';
/** A public client (PKCE alone) with two redirect URIs, so it must always name one. */
const SPA = { clientId: 'spa', name: 'Single-page app', redirectUris: ['http://127.0.0.1:4000/callback', 'http://127.0.0.1:4000/other'] };
const SECRET = 'web-client-secret-0123456789-abcdefghij';
/** A confidential client with one redirect URI that has a query of its own. */
const WEB = { clientId: 'web', name: 'Web app', clientSecret: SECRET, redirectUris: ['https://app.example/cb?tenant=1'] };

let t: TestApp;
let admin: string;
let clock = Date.now();
let as: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true };
const spa: oauth.Client = { client_id: SPA.clientId };
const web: oauth.Client = { client_id: WEB.clientId };

useAdminApp(
  async () => {
    const app = await startTestApp(
      {
        schemas: TEST_SCHEMAS,
        security: { cookie: { secure: false, sameSite: 'strict' } },
        oauth2: { enabled: true, issuer: ISSUER, clients: [SPA, WEB] },
      },
      { now: () => new Date(clock) },
    );
    await app.app.server.listen({ port: 0, host: '127.0.0.1' });
    return app;
  },
  (app, token) => {
    t = app;
    admin = token;
    const { port } = app.app.server.server.address() as AddressInfo;
    // Built from the wire contract: the metadata endpoint is another branch's.
    as = {
      issuer: ISSUER,
      authorization_endpoint: `http://127.0.0.1:${port}/api/auth/authorize`,
      token_endpoint: `http://127.0.0.1:${port}/api/auth/token`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    };
  },
);

interface Request {
  client: string;
  redirectUri?: string;
  scope?: string;
  challenge?: string;
  method?: string;
  responseType?: string;
  state?: string;
}

/** The authorization request's parameters (RFC 6749 §4.1.1), absent values left out. */
function params(r: Request): Record<string, string> {
  const p: Record<string, string | undefined> = {
    response_type: r.responseType ?? 'code',
    client_id: r.client,
    redirect_uri: r.redirectUri,
    scope: r.scope,
    state: r.state,
    code_challenge: r.challenge,
    code_challenge_method: r.method,
  };
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

const authorizeGet = (r: Request, headers: { token?: string; cookie?: string } = {}) =>
  t.request({
    method: 'GET',
    url: `/api/auth/authorize?${new URLSearchParams(params(r))}`,
    token: headers.token,
    headers: headers.cookie ? { cookie: headers.cookie } : {},
  });

const authorizePost = (r: Request, decision: Record<string, unknown>, token = admin) =>
  t.request({ method: 'POST', url: '/api/auth/authorize', token, payload: { ...params(r), ...decision } });

/** A fresh PKCE pair and state, as a client makes them for each request. */
async function pkce() {
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier), state: oauth.generateRandomState() };
}

/** Consent page → approve → the validated callback parameters (the code), and what the client keeps. */
async function approved(client: oauth.Client, r: Omit<Request, 'client' | 'challenge' | 'method' | 'state'>, decision = {}) {
  const { verifier, challenge, state } = await pkce();
  const req: Request = { ...r, client: client.client_id, challenge, method: 'S256', state };
  const consent = await authorizeGet(req, { token: admin });
  expect(consent.statusCode, consent.body).toBe(200);
  const res = await authorizePost(req, { action: 'approve', ...decision });
  expect(res.statusCode, res.body).toBe(200);
  const redirectUrl = res.json().data.redirectUrl as string;
  const callback = oauth.validateAuthResponse(as, client, new URL(redirectUrl), state);
  return { callback, verifier, redirectUrl, redirectUri: consent.json().data.redirectUri as string };
}

const redeem = (
  client: oauth.Client,
  auth: oauth.ClientAuth,
  a: { callback: URLSearchParams; verifier: string; redirectUri: string },
  over: { verifier?: string; redirectUri?: string } = {},
) =>
  oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    a.callback,
    over.redirectUri ?? a.redirectUri,
    over.verifier ?? a.verifier,
    insecure,
  );

/** The token endpoint refused with this RFC 6749 §5.2 error; oauth4webapi reports it as a ResponseBodyError. */
async function expectTokenError(client: oauth.Client, res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  await expect(oauth.processAuthorizationCodeResponse(as, client, res)).rejects.toMatchObject({ status, error });
}

/** The authorization endpoint answered with an error response at the redirect URI (RFC 6749 §4.1.2.1). */
function expectRedirectError(
  res: { statusCode: number; headers: Record<string, unknown> },
  client: oauth.Client,
  state: string,
  error: string,
) {
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  expect(location.searchParams.get('state')).toBe(state);
  expect(location.searchParams.get('error_description')).toEqual(expect.any(String));
  let thrown: unknown;
  try {
    oauth.validateAuthResponse(as, client, location, state);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(oauth.AuthorizationResponseError);
  expect((thrown as oauth.AuthorizationResponseError).error).toBe(error);
  return location;
}

const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

describe('the happy path', () => {
  it('public client: consent data, approve, the code redeemed with PKCE alone, the access token works on the API', async () => {
    const { verifier, challenge, state } = await pkce();
    const req: Request = {
      client: 'spa',
      redirectUri: SPA.redirectUris[0],
      scope: 'content:read media:read',
      challenge,
      method: 'S256',
      state,
    };
    const consent = await authorizeGet(req, { token: admin });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.headers['cache-control']).toBe('no-store');
    expect(consent.json()).toEqual({
      data: {
        client: { id: 'spa', name: 'Single-page app' },
        scopes: ['content:read', 'media:read'],
        redirectUri: SPA.redirectUris[0],
        state,
      },
    });

    const res = await authorizePost(req, { action: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const redirectUrl: string = res.json().data.redirectUrl;
    expect(redirectUrl.startsWith(`${SPA.redirectUris[0]}?`)).toBe(true);
    const callback = oauth.validateAuthResponse(as, spa, new URL(redirectUrl), state);
    expect(callback.get('code')).toMatch(/^vac_[0-9A-Za-z]{43}$/);
    expect(callback.get('iss')).toBe(ISSUER);

    const tokenRes = await redeem(spa, oauth.None(), { callback, verifier, redirectUri: SPA.redirectUris[0] });
    const tokens = await oauth.processAuthorizationCodeResponse(as, spa, tokenRes);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('content:read media:read');
    expect(tokens.refresh_token).toMatch(/^vor_/);
    const who = await me(tokens.access_token);
    expect(who.statusCode, who.body).toBe(200);
    expect(who.json().data.username).toBe(ADMIN.username);
  });

  it('confidential client with client_secret_basic; its one redirect URI may be left out and keeps its query', async () => {
    const a = await approved(web, { scope: 'content:read' });
    expect(a.redirectUri).toBe(WEB.redirectUris[0]);
    expect(a.redirectUrl.startsWith('https://app.example/cb?tenant=1&')).toBe(true);
    const tokens = await oauth.processAuthorizationCodeResponse(as, web, await redeem(web, oauth.ClientSecretBasic(SECRET), a));
    expect(tokens.scope).toBe('content:read');
    expect((await me(tokens.access_token)).statusCode).toBe(200);
  });

  it('confidential client with client_secret_post', async () => {
    const a = await approved(web, { redirectUri: WEB.redirectUris[0], scope: 'content:read' });
    const tokens = await oauth.processAuthorizationCodeResponse(as, web, await redeem(web, oauth.ClientSecretPost(SECRET), a));
    expect((await me(tokens.access_token)).statusCode).toBe(200);
  });

  it('a cookie session gets the consent data too', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    const raw = login.headers['set-cookie'] as string[];
    const cookie = raw.map((c) => c.split(';')[0]).join('; ');
    const { challenge, state } = await pkce();
    const res = await authorizeGet({ client: 'spa', redirectUri: SPA.redirectUris[1], challenge, method: 'S256', state }, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.redirectUri).toBe(SPA.redirectUris[1]);
  });

  it('the approval is audited as oauthGrant on the user, without the code', async () => {
    await approved(spa, { redirectUri: SPA.redirectUris[0], scope: 'media:read' });
    const res = await t.request({ method: 'GET', url: '/api/audit?type=oauthGrant&limit=100', token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const records = res.json().data as { target: string; actor: { id: string }; details: Record<string, unknown> }[];
    const mine = records.find((r) => r.details.clientId === 'spa' && (r.details.scopes as string[]).join(' ') === 'media:read');
    expect(mine?.details).toEqual({ clientId: 'spa', scopes: ['media:read'], flow: 'authorization_code' });
    const adminId = (await me(admin)).json().data.id;
    expect(mine?.target).toBe(adminId);
    expect(mine?.actor.id).toBe(adminId);
    expect(res.body).not.toMatch(/vac_/);
  });
});

describe('the token endpoint refuses', () => {
  it('a wrong code_verifier: 400 invalid_grant', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0] });
    await expectTokenError(spa, await redeem(spa, oauth.None(), a, { verifier: oauth.generateRandomCodeVerifier() }), 400, 'invalid_grant');
  });

  it('a reused code: 400 invalid_grant, and the tokens of the first use stop working (RFC 6749 §4.1.2)', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0], scope: 'content:read' });
    const first = await oauth.processAuthorizationCodeResponse(as, spa, await redeem(spa, oauth.None(), a));
    expect((await me(first.access_token)).statusCode).toBe(200);
    await expectTokenError(spa, await redeem(spa, oauth.None(), a), 400, 'invalid_grant');
    expectSpecError(await me(first.access_token), 401, 'UNAUTHORIZED');
    const refresh = await oauth.refreshTokenGrantRequest(as, spa, oauth.None(), first.refresh_token!, insecure);
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('two simultaneous redemptions: exactly one succeeds, and the loser counts as a second use', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0], scope: 'content:read' });
    const answers = await Promise.all([redeem(spa, oauth.None(), a), redeem(spa, oauth.None(), a)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = answers.find((r) => r.status === 200)!;
    const loser = answers.find((r) => r.status === 400)!;
    await expectTokenError(spa, loser, 400, 'invalid_grant');
    const tokens = await oauth.processAuthorizationCodeResponse(as, spa, winner);
    expectSpecError(await me(tokens.access_token), 401, 'UNAUTHORIZED');
  });

  it("a redirect_uri other than the authorization request's: 400 invalid_grant", async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0] });
    await expectTokenError(spa, await redeem(spa, oauth.None(), a, { redirectUri: SPA.redirectUris[1] }), 400, 'invalid_grant');
    // The failed attempt did not spend the code.
    expect((await redeem(spa, oauth.None(), a)).status).toBe(200);
  });

  it('redirect_uri left out of the token request: accepted only for a client with one registered URI (RFC 6749 §4.1.3)', async () => {
    const form = (a: { callback: URLSearchParams; verifier: string }, clientId: string, headers: Record<string, string> = {}) =>
      t.request({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code: a.callback.get('code')!,
          code_verifier: a.verifier,
          client_id: clientId,
        }).toString(),
      });
    const several = await approved(spa, { redirectUri: SPA.redirectUris[0] });
    const refused = await form(several, 'spa');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    const one = await approved(web, { scope: 'content:read' });
    const basic = `Basic ${Buffer.from(`web:${SECRET}`).toString('base64')}`;
    const ok = await form(one, 'web', { authorization: basic });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().scope).toBe('content:read');
  });

  it('an expired code (60 s): 400 invalid_grant', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0] });
    clock += 61_000;
    await expectTokenError(spa, await redeem(spa, oauth.None(), a), 400, 'invalid_grant');
  });

  it('a code issued to another client: 400 invalid_grant', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0] });
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      web,
      oauth.ClientSecretBasic(SECRET),
      a.callback,
      a.redirectUri,
      a.verifier,
      insecure,
    );
    await expectTokenError(web, res, 400, 'invalid_grant');
  });

  it('a confidential client with a wrong secret, or none: 401 invalid_client', async () => {
    const a = await approved(web, { scope: 'content:read' });
    for (const auth of [
      oauth.ClientSecretBasic(`${SECRET}-wrong`),
      oauth.ClientSecretPost('not-the-secret-at-all-0123456789abc'),
      oauth.None(),
    ]) {
      const res = await redeem(web, auth, a);
      expect(res.status).toBe(401);
      expect(await res.clone().json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      // The Basic challenge comes with it, which oauth4webapi reports as such.
      await expect(oauth.processAuthorizationCodeResponse(as, web, res)).rejects.toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    }
    // None of those spent the code.
    expect((await redeem(web, oauth.ClientSecretBasic(SECRET), a)).status).toBe(200);
  });
});

describe('the authorization endpoint', () => {
  it('a plain challenge, or no method (which means plain): 302 error=invalid_request with the state', async () => {
    const { verifier, state } = await pkce();
    for (const method of ['plain', undefined]) {
      const res = await authorizeGet(
        { client: 'spa', redirectUri: SPA.redirectUris[0], challenge: verifier, method, state },
        { token: admin },
      );
      const location = expectRedirectError(res, spa, state, 'invalid_request');
      expect(location.origin + location.pathname).toBe(SPA.redirectUris[0]);
    }
  });

  it('no code_challenge: 302 error=invalid_request with the state (PKCE is required)', async () => {
    const { state } = await pkce();
    const res = await authorizeGet({ client: 'spa', redirectUri: SPA.redirectUris[0], state }, { token: admin });
    expectRedirectError(res, spa, state, 'invalid_request');
  });

  it('a challenge that is not 43 base64url characters: 302 error=invalid_request', async () => {
    const { challenge, state } = await pkce();
    const res = await authorizeGet({ client: 'spa', redirectUri: SPA.redirectUris[0], challenge: `${challenge}A`, method: 'S256', state });
    expectRedirectError(res, spa, state, 'invalid_request');
  });

  it.each<[string, string, Partial<Request>]>([
    ['response_type other than code', 'unsupported_response_type', { responseType: 'token' }],
    ['an unknown scope', 'invalid_scope', { scope: 'content:read users:write' }],
  ])('%s: 302 error=%s', async (_what, error, extra) => {
    const { challenge, state } = await pkce();
    const res = await authorizeGet({ client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state, ...extra });
    expectRedirectError(res, spa, state, error);
  });

  it('a parameter sent twice (RFC 6749 §3.1): 302 error=invalid_request, or 400 shown when it is client_id or redirect_uri', async () => {
    const { challenge, state } = await pkce();
    const query = new URLSearchParams(params({ client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state }));
    const twice = (name: string) =>
      t.request({ method: 'GET', url: `/api/auth/authorize?${query}&${name}=${encodeURIComponent(query.get(name)!)}`, token: admin });
    expectRedirectError(await twice('code_challenge'), spa, state, 'invalid_request');
    for (const name of ['client_id', 'redirect_uri']) {
      const res = await twice(name);
      expectSpecError(res, 400, 'INVALID_INPUT');
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('an unregistered client: 400 INVALID_INPUT shown, never a redirect', async () => {
    const { challenge, state } = await pkce();
    for (const client of ['nobody', 'service-cli']) {
      const res = await authorizeGet({ client, redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state }, { token: admin });
      expectSpecError(res, 400, 'INVALID_INPUT');
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('a redirect_uri not registered exactly (or missing when several are): 400 INVALID_INPUT shown, never a redirect', async () => {
    const { challenge, state } = await pkce();
    for (const redirectUri of ['https://evil.example/callback', `${SPA.redirectUris[0]}/`, `${SPA.redirectUris[0]}?x=1`, undefined]) {
      // Even with the other problems a redirect would report: nothing goes to an unchecked URI.
      const res = await authorizeGet({ client: 'spa', redirectUri, responseType: 'token', state });
      expectSpecError(res, 400, 'INVALID_INPUT');
      expect(res.headers.location).toBeUndefined();
      const post = await authorizePost({ client: 'spa', redirectUri, challenge, method: 'S256', state }, { action: 'approve' });
      expectSpecError(post, 400, 'INVALID_INPUT');
    }
  });

  it('no session: 302 to the studio consent page with the same query', async () => {
    const { challenge, state } = await pkce();
    const query = new URLSearchParams(params({ client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state }));
    const res = await t.request({ method: 'GET', url: `/api/auth/authorize?${query}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ISSUER}/studio/auth/authorize?${query}`);
  });

  it('an API token or an OAuth access token cannot consent: 403', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'ci', permissions: ['content:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0], scope: 'content:read' });
    const oauthToken = (await oauth.processAuthorizationCodeResponse(as, spa, await redeem(spa, oauth.None(), a))).access_token;
    const { challenge, state } = await pkce();
    const req: Request = { client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state };
    for (const token of [created.json().data.token as string, oauthToken]) {
      expectSpecError(await authorizeGet(req, { token }), 403, 'FORBIDDEN');
      expectSpecError(await authorizePost(req, { action: 'approve' }, token), 403, 'FORBIDDEN');
    }
  });

  it('POST without a session: 401', async () => {
    const { challenge, state } = await pkce();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/authorize',
      payload: { ...params({ client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state }), action: 'approve' },
    });
    expectSpecError(res, 401, 'UNAUTHORIZED');
  });
});

describe("the user's decision", () => {
  it('narrowed scopes: the token carries only them, and a content:write right missing from it is 403', async () => {
    const a = await approved(spa, { redirectUri: SPA.redirectUris[0], scope: 'content:read content:write' }, { scopes: ['content:read'] });
    const tokens = await oauth.processAuthorizationCodeResponse(as, spa, await redeem(spa, oauth.None(), a));
    expect(tokens.scope).toBe('content:read');
    expect((await t.request({ method: 'GET', url: '/api/documents/company', token: tokens.access_token })).statusCode).toBe(200);
    const write = await t.request({ method: 'POST', url: '/api/documents/company', token: tokens.access_token, payload: { name: 'Nope' } });
    expectSpecError(write, 403, 'FORBIDDEN');
  });

  it('narrowing to a scope that was not asked for: 400 INVALID_INPUT', async () => {
    const { challenge, state } = await pkce();
    const req: Request = { client: 'spa', redirectUri: SPA.redirectUris[0], scope: 'content:read', challenge, method: 'S256', state };
    expectSpecError(await authorizePost(req, { action: 'approve', scopes: ['content:write'] }), 400, 'INVALID_INPUT');
  });

  it('approving with every scope unticked: 400 INVALID_INPUT', async () => {
    const { challenge, state } = await pkce();
    const req: Request = { client: 'spa', redirectUri: SPA.redirectUris[0], scope: 'content:read', challenge, method: 'S256', state };
    expectSpecError(await authorizePost(req, { action: 'approve', scopes: [] }), 400, 'INVALID_INPUT');
  });

  it('consent denied: the redirect URL carries error=access_denied and the state (the scopes sent along are ignored)', async () => {
    const { challenge, state } = await pkce();
    const req: Request = { client: 'spa', redirectUri: SPA.redirectUris[0], challenge, method: 'S256', state };
    const res = await authorizePost(req, { action: 'deny', scopes: [] });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().data.redirectUrl);
    expect(url.searchParams.get('code')).toBeNull();
    expectRedirectError({ statusCode: 302, headers: { location: url.href } }, spa, state, 'access_denied');
  });

  it('a POST with a request problem answers with the error response URL, not a code', async () => {
    const { verifier, state } = await pkce();
    const res = await authorizePost(
      { client: 'spa', redirectUri: SPA.redirectUris[0], challenge: verifier, method: 'plain', state },
      { action: 'approve' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expectRedirectError({ statusCode: 302, headers: { location: res.json().data.redirectUrl } }, spa, state, 'invalid_request');
  });
});
