import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { foreignSigned, unsignedJwt, useOidcProvider } from '../helpers/oidc-provider.js';

// Identity-provider sign-in refuses what it cannot trust (docs/api.md, "Identity provider"):
// states that are unknown, spent or expired (400), ID tokens whose signature, iss, aud, nonce or
// exp do not check (401); with no provider configured, 501.
const idp = useOidcProvider();
let t: TestApp;
let admin: string;
let clock = Date.now();
const SUB = 'hostile-linked';

const callback = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/oauth/idp/callback', payload });

describe('identity provider: hostile callbacks', () => {
  useAdminApp(
    () => startTestApp(idp.config(), { now: () => new Date(clock) }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('the admin links an account, so a good flow signs in (the baseline the other cases spoil)', async () => {
    expect((await idp.flow(t, { sub: SUB, mode: 'link', token: admin })).statusCode).toBe(200);
    expect((await idp.flow(t, { sub: SUB })).statusCode).toBe(200);
  });

  it('an unknown state is 400', async () => {
    const { code } = await idp.authorize(t);
    expectSpecError(await callback({ code, state: 'never-issued-state' }), 400, 'INVALID_INPUT');
  });

  it('a state used once is 400 the second time', async () => {
    const { code, state } = await idp.authorize(t);
    idp.state.claims = { sub: SUB };
    expect((await callback({ code, state })).statusCode).toBe(200);
    expectSpecError(await callback({ code, state }), 400, 'INVALID_INPUT');
  });

  it('a state older than 10 minutes is 400', async () => {
    const { code, state } = await idp.authorize(t);
    clock += 10 * 60_000 + 1000;
    idp.state.claims = { sub: SUB };
    expectSpecError(await callback({ code, state }), 400, 'INVALID_INPUT');
  });

  it('an ID token with another nonce is 401', async () => {
    idp.state.tamper = (token) => void (token.payload.nonce = 'not-the-nonce-we-sent');
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('an expired ID token is 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    idp.state.tamper = (token) => Object.assign(token.payload, { iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('an ID token for another audience is 401', async () => {
    idp.state.tamper = (token) => void (token.payload.aud = 'another-client');
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('an ID token from another issuer is 401', async () => {
    idp.state.tamper = (token) => void (token.payload.iss = 'https://accounts.example.com');
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('an unsigned ID token (alg none) is 401', async () => {
    idp.replaceIdToken(unsignedJwt);
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('an ID token signed by a key the provider never published is 401', async () => {
    idp.replaceIdToken(foreignSigned);
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });

  it('a refused code (the provider answers invalid_grant) is 401', async () => {
    idp.state.tamperResponse = (body) => {
      for (const key of Object.keys(body)) delete body[key];
      body.error = 'invalid_grant';
    };
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
  });
});

describe('identity provider: sign-in limit', () => {
  useAdminApp(
    () => startTestApp({ security: { ...idp.config().security, rateLimit: { login: { windowMs: 900_000, max: 3 } } } }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('refused callbacks count against the client IP like wrong passwords: the fourth is 429', async () => {
    for (let i = 0; i < 3; i++) expectSpecError(await callback({ code: 'c', state: `guess-${i}` }), 400, 'INVALID_INPUT');
    const limited = expectSpecError(await callback({ code: 'c', state: 'guess-3' }), 429, 'RATE_LIMITED');
    expect(limited.retryAfter).toBeGreaterThan(0);
  });
});

describe('identity provider: not configured', () => {
  useAdminApp(
    () => startTestApp(),
    (app, token) => ((t = app), (admin = token)),
  );

  it('status says disabled; init, callback and unlink answer 501', async () => {
    const status = await t.request({ method: 'GET', url: '/api/auth/oauth/status' });
    expect(status.json()).toEqual({ data: { enabled: false, providers: [] } });
    expectSpecError(await t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', payload: {} }), 501, 'NOT_IMPLEMENTED');
    expectSpecError(await callback({ code: 'c', state: 's' }), 501, 'NOT_IMPLEMENTED');
    expectSpecError(await t.request({ method: 'DELETE', url: '/api/auth/oauth/idp/unlink', token: admin }), 501, 'NOT_IMPLEMENTED');
  });
});

describe('identity provider: unreachable', () => {
  useAdminApp(
    // Nothing listens on port 9 of the loopback: discovery fails at the first request, not at start-up.
    () => startTestApp({ security: { oauth: { issuer: 'http://127.0.0.1:9', clientId: 'x', redirectUri: 'http://localhost/cb' } } }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('init answers 503 with retryAfter', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', payload: {} });
    expect(expectSpecError(res, 503, 'SERVICE_UNAVAILABLE').retryAfter).toBeGreaterThan(0);
  });
});
