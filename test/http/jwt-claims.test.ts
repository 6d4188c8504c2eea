import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { deviceTokens, form } from '../helpers/oauth2.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';

// Every JWT the server verifies has an `iat` at most 60 s ahead, and the ones it signs live no
// longer than it issues them for: `security.tokenExpiry` for session access tokens,
// `oauth2.accessTokenTtl` for RFC 9068 tokens (docs/api.md, "Authentication"). Tokens are forged
// with the server's own key, which is what such a token would take.
const nowS = () => Math.floor(Date.now() / 1000);
const YEAR = 365 * 86_400;
const me = (t: TestApp, token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

/** A session access token with the claims of `real`, valid from `iat` to `exp`, signed with the server's key. */
function sessionToken(t: TestApp, real: string, iat: number | undefined, exp: number) {
  const c = decodeJwt(real);
  const jwt = new SignJWT({ sid: c.sid, role: c.role, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(c.sub as string)
    .setIssuer(c.iss as string)
    .setExpirationTime(exp);
  if (iat !== undefined) jwt.setIssuedAt(iat);
  return jwt.sign(t.app.services.jwtKey.cryptoKey);
}

/** An RFC 9068 access token with the claims of `real`, valid from `iat` to `exp`. */
function oauthToken(t: TestApp, real: string, iat: number, exp: number) {
  const c = decodeJwt(real);
  return new SignJWT({ client_id: c.client_id, scope: c.scope, gid: c.gid })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(c.iss as string)
    .setAudience(c.aud as string)
    .setSubject(c.sub as string)
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(t.app.services.jwtKey.cryptoKey);
}

describe('session access tokens (security.tokenExpiry 1h by default)', () => {
  let t: TestApp;
  let admin: string;
  useAdminApp(
    () => startTestApp(),
    (app, token) => ((t = app), (admin = token)),
  );

  it('an iat a year ahead is 401 UNAUTHORIZED; 30 s ahead (clock drift) is accepted', async () => {
    const far = nowS() + YEAR;
    expectSpecError(await me(t, await sessionToken(t, admin, far, far + 3600)), 401, 'UNAUTHORIZED');
    expectSpecError(await me(t, await sessionToken(t, admin, nowS() + 120, nowS() + 1800)), 401, 'UNAUTHORIZED');
    const near = nowS() + 30;
    expect((await me(t, await sessionToken(t, admin, near, near + 3600))).statusCode).toBe(200);
  });

  it('a lifetime longer than the configured expiry is 401; exactly the expiry is accepted', async () => {
    const iat = nowS();
    expectSpecError(await me(t, await sessionToken(t, admin, iat, iat + 3601)), 401, 'UNAUTHORIZED');
    expectSpecError(await me(t, await sessionToken(t, admin, iat - 60, iat + YEAR)), 401, 'UNAUTHORIZED');
    expect((await me(t, await sessionToken(t, admin, iat, iat + 3600))).statusCode).toBe(200);
  });

  it('a token without iat is 401', async () => {
    expectSpecError(await me(t, await sessionToken(t, admin, undefined, nowS() + 600)), 401, 'UNAUTHORIZED');
  });
});

describe('session access tokens with security.tokenExpiry 5m', () => {
  let t: TestApp;
  let admin: string;
  useAdminApp(
    () => startTestApp({ security: { tokenExpiry: '5m' } }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('a 10-minute token is 401; the server’s own 5-minute tokens work', async () => {
    const iat = nowS();
    expectSpecError(await me(t, await sessionToken(t, admin, iat, iat + 600)), 401, 'UNAUTHORIZED');
    expect((await me(t, admin)).statusCode).toBe(200);
    expect((await me(t, await sessionToken(t, admin, iat, iat + 300))).statusCode).toBe(200);
  });
});

describe('OAuth access tokens (RFC 9068; oauth2.accessTokenTtl 15m by default)', () => {
  let t: TestApp;
  let admin: string;
  useAdminApp(
    () => startTestApp({ oauth2: { enabled: true } }),
    (app, token) => ((t = app), (admin = token)),
  );

  it('an iat a year ahead, or a lifetime past 15 minutes (a session token’s hour included), is 401', async () => {
    const { access_token: real } = await deviceTokens(t, admin, 'content:read');
    expect((await me(t, real)).statusCode).toBe(200);
    const iat = nowS();
    expectSpecError(await me(t, await oauthToken(t, real, iat + YEAR, iat + YEAR + 900)), 401, 'UNAUTHORIZED');
    expectSpecError(await me(t, await oauthToken(t, real, iat, iat + 3600)), 401, 'UNAUTHORIZED');
    expect((await me(t, await oauthToken(t, real, iat, iat + 900))).statusCode).toBe(200);
  });

  it('revoking with a token issued in the future revokes nothing (RFC 7009 §2.2: not a token of ours)', async () => {
    const tokens = await deviceTokens(t, admin, 'content:read');
    const far = nowS() + YEAR;
    const forged = await oauthToken(t, tokens.access_token, far, far + 900);
    const res = await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ token: forged, client_id: 'service-cli' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(t, tokens.access_token)).statusCode).toBe(200);
  });
});

describe('ID tokens from the identity provider', () => {
  const idp = useOidcProvider();
  let t: TestApp;
  let admin: string;
  useAdminApp(
    () => startTestApp(idp.config()),
    (app, token) => ((t = app), (admin = token)),
  );
  const SUB = 'jwt-claims-linked';

  it('an ID token issued a year ahead is 401; one 30 s ahead signs in', async () => {
    expect((await idp.flow(t, { sub: SUB, mode: 'link', token: admin })).statusCode).toBe(200);
    const far = nowS() + YEAR;
    idp.state.tamper = (token) => Object.assign(token.payload, { iat: far, exp: far + 3600 });
    expectSpecError(await idp.flow(t, { sub: SUB }), 401, 'UNAUTHORIZED');
    const near = nowS() + 30;
    idp.state.tamper = (token) => Object.assign(token.payload, { iat: near, exp: near + 3600 });
    const ok = await idp.flow(t, { sub: SUB });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user.username).toBe(ADMIN.username);
  });
});
