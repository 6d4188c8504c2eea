import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { spyQueries } from '../helpers/query-spy.js';
import { SERVED_USER_KEYS } from '../helpers/user-keys.js';

let t: TestApp;
let clock = new Date('2026-01-01T00:00:00.000Z');
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

const loginRes = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/login', payload });

/** Every key anywhere in a JSON value, to prove no secret-looking field is ever served. */
function allKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => allKeys(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      allKeys(v, out);
    }
  return out;
}
const FORBIDDEN_KEYS = /hash|secret|password|backup/i;

beforeAll(async () => {
  t = await startTestApp({ security: { tokenExpiry: '15m', refreshTokenExpiry: '7d' } }, { now: () => clock });
});
afterAll(() => t.close());

describe('login', () => {
  it('answers token, refreshToken, user and expiresAt; the JWT carries the pinned claims', async () => {
    const res = await loginRes({ username: ADMIN.username, password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['expiresAt', 'refreshToken', 'token', 'user']);
    expect(data.user).toMatchObject({
      username: 'admin',
      email: 'admin@example.com',
      role: 'admin',
      active: true,
      mfaEnabled: false,
      name: 'admin',
    });
    expect(data.refreshToken).toMatch(/^vlr_[0-9A-Za-z]{43}$/);
    expect(decodeProtectedHeader(data.token)).toMatchObject({ alg: 'HS256' });
    const claims = decodeJwt(data.token);
    expect(claims).toMatchObject({ sub: data.user.id, role: 'admin', typ: 'access', iss: 'vellum' });
    expect(typeof claims.sid).toBe('string');
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(data.expiresAt).toBe(new Date(claims.exp! * 1000).toISOString());
    expect(allKeys(res.json()).filter((k) => FORBIDDEN_KEYS.test(k))).toEqual([]);
  });

  it('accepts the email address in place of the username', async () => {
    expect((await loginRes({ username: ADMIN.email, password: ADMIN.password })).statusCode).toBe(200);
  });

  it('fails alike for a wrong password and an unknown user', async () => {
    const wrong = await loginRes({ username: ADMIN.username, password: 'nope-nope-nope' });
    const unknown = await loginRes({ username: 'nobody', password: 'nope-nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.code).toBe('UNAUTHORIZED');
  });

  it('an unknown user and a wrong password do the same database work before the same answer', async () => {
    let queries: string[] = [];
    // Parameters differ (the usernames); the statements must not.
    const restore = spyQueries(t, (text) => void queries.push(text));
    try {
      const known = await loginRes({ username: ADMIN.username, password: 'not-the-password' });
      const knownQueries = queries;
      queries = [];
      const unknown = await loginRes({ username: 'no-such-user', password: 'not-the-password' });
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      expect(queries).toEqual(knownQueries);
    } finally {
      restore();
    }
  });

  it('refuses bodies that are not the login shape', async () => {
    expect((await loginRes({ username: 'admin' })).statusCode).toBe(422);
    expect((await loginRes({ username: 'admin', password: 5 })).statusCode).toBe(422);
    const extra = await loginRes({ username: 'admin', password: 'x', role: 'admin' });
    expect(extra.statusCode).toBe(422);
    expect(extra.json().error.details).toContainEqual({ field: 'role', message: 'unknown field' });
  });
});

describe('me and validate', () => {
  it('GET /auth/me returns the served user shape, never a hash', async () => {
    const token = await t.login(ADMIN.username, ADMIN.password);
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token });
    expect(res.statusCode).toBe(200);
    // The served user, and the user's own preferences (docs/api.md, "Preferences").
    expect(Object.keys(res.json().data).sort()).toEqual([...SERVED_USER_KEYS, 'preferences'].sort());
    expect(res.json().data.lastLogin).toBe(clock.toISOString());
    expect((await t.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('POST /auth/validate returns the session for a bearer or a body token', async () => {
    const token = await t.login(ADMIN.username, ADMIN.password);
    const res = await t.request({ method: 'POST', url: '/api/auth/validate', token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ valid: true, kind: 'user', role: 'admin', user: { username: 'admin', role: 'admin' } });
    expect(res.json().data.permissions).toContain('users:read');
    const viaBody = await t.request({ method: 'POST', url: '/api/auth/validate', payload: { token } });
    expect(viaBody.statusCode).toBe(200);
    const bad = await t.request({ method: 'POST', url: '/api/auth/validate', payload: { token: 'garbage' } });
    expect(bad.statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/auth/validate' })).statusCode).toBe(401);
  });
});

describe('refresh', () => {
  it('rotates: a new pair each time, the old refresh token is spent', async () => {
    const first = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    tick(1000);
    const r1 = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } });
    expect(r1.statusCode).toBe(200);
    const next = r1.json().data;
    expect(Object.keys(next).sort()).toEqual(['expiresAt', 'refreshToken', 'token']);
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(next.token).sid).toBe(decodeJwt(first.token).sid);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: next.token })).statusCode).toBe(200);
    // The refresh token works as the bearer on this endpoint alone.
    const r2 = await t.request({ method: 'POST', url: '/api/auth/refresh', token: next.refreshToken });
    expect(r2.statusCode).toBe(200);
  });

  it('reuse of a spent refresh token revokes the whole session', async () => {
    const first = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    const rotated = (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } })).json()
      .data;
    const replay = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } });
    expect(replay.statusCode).toBe(401);
    // The legitimate holder's newer tokens die with the session.
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: rotated.refreshToken } })).statusCode,
    ).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: rotated.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: first.token })).statusCode).toBe(401);
  });

  it('refuses unknown, missing and expired refresh tokens, and an access token', async () => {
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: 'vlr_unknown' } })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', payload: {} })).statusCode).toBe(401);
    const first = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.token } })).statusCode).toBe(401);
    tick(7 * 86_400_000 + 1000);
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } })).statusCode).toBe(
      401,
    );
  });

  it('rememberMe extends the refresh lifetime to 30 days', async () => {
    const plain = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    const remembered = (await loginRes({ username: ADMIN.username, password: ADMIN.password, rememberMe: true })).json().data;
    tick(8 * 86_400_000);
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: plain.refreshToken } })).statusCode).toBe(
      401,
    );
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: remembered.refreshToken } })).statusCode,
    ).toBe(200);
  });

  it('access tokens expire after tokenExpiry', async () => {
    const token = await t.login(ADMIN.username, ADMIN.password);
    tick(14 * 60_000);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(200);
    tick(2 * 60_000);
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/expired/i);
  });
});

describe('logout', () => {
  it('revokes the refresh token; the access token stays valid until it expires', async () => {
    const session = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    const res = await t.request({ method: 'POST', url: '/api/auth/logout', token: session.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: session.token })).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } })).statusCode,
    ).toBe(401);
  });

  it('accepts the refresh token in the body as well', async () => {
    const session = (await loginRes({ username: ADMIN.username, password: ADMIN.password })).json().data;
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: session.refreshToken } })).statusCode).toBe(
      200,
    );
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } })).statusCode,
    ).toBe(401);
  });
});

describe('sessions', () => {
  it('maxConcurrent revokes the oldest session at once', async () => {
    const limited = await startTestApp({ security: { session: { maxConcurrent: 2 } } });
    try {
      const a = await limited.login(ADMIN.username, ADMIN.password);
      const b = await limited.login(ADMIN.username, ADMIN.password);
      expect((await limited.request({ method: 'GET', url: '/api/auth/me', token: a })).statusCode).toBe(200);
      const c = await limited.login(ADMIN.username, ADMIN.password);
      expect((await limited.request({ method: 'GET', url: '/api/auth/me', token: a })).statusCode).toBe(401);
      expect((await limited.request({ method: 'GET', url: '/api/auth/me', token: b })).statusCode).toBe(200);
      expect((await limited.request({ method: 'GET', url: '/api/auth/me', token: c })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
