import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

let t: TestApp;

/** The cookies a response sets, by name, with their attributes. */
function setCookies(res: { headers: Record<string, unknown> }): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw as string] : [];
  return Object.fromEntries(list.map((c: string) => [c.split('=')[0], c]));
}
const value = (cookie: string) => decodeURIComponent(cookie.split(';')[0].split('=').slice(1).join('='));
const jar = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${encodeURIComponent(value(v))}`)
    .join('; ');

async function cookieLogin() {
  const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } });
  expect(res.statusCode).toBe(200);
  const cookies = setCookies(res);
  return { cookies, header: jar(cookies), csrf: value(cookies.vellum_csrf) };
}

beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS, security: { cookie: { secure: false, sameSite: 'strict' } } });
});
afterAll(() => t.close());

describe('cookie sessions', () => {
  it('login sets HttpOnly session cookies and a readable CSRF cookie', async () => {
    const { cookies } = await cookieLogin();
    expect(Object.keys(cookies).sort()).toEqual(['vellum_access', 'vellum_csrf', 'vellum_refresh']);
    expect(cookies.vellum_access).toMatch(/; Path=\/api; Max-Age=3600; SameSite=Strict; HttpOnly$/);
    expect(cookies.vellum_refresh).toMatch(/; Path=\/api\/auth; Max-Age=604800; SameSite=Strict; HttpOnly$/);
    expect(cookies.vellum_csrf).not.toMatch(/HttpOnly/);
  });

  it('the cookie authenticates reads; writes need the CSRF header', async () => {
    const { header, csrf } = await cookieLogin();
    expect((await t.request({ method: 'GET', url: '/api/auth/me', headers: { cookie: header } })).json().data.username).toBe(
      ADMIN.username,
    );
    const write = (extra: Record<string, string>) =>
      t.request({ method: 'POST', url: '/api/documents/company', headers: { cookie: header, ...extra }, payload: { name: 'Cookie Co' } });
    const none = await write({});
    expect(none.statusCode).toBe(403);
    expect(none.json().error.code).toBe('FORBIDDEN');
    expect((await write({ 'x-csrf-token': 'forged' })).statusCode).toBe(403);
    expect((await write({ 'x-csrf-token': csrf })).statusCode).toBe(201);
  });

  it('refresh and logout work with the cookies (refresh needs the CSRF header too)', async () => {
    const { header, csrf } = await cookieLogin();
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: header } })).statusCode).toBe(403);
    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: header, 'x-csrf-token': csrf } });
    expect(refreshed.statusCode).toBe(200);
    const next = setCookies(refreshed);
    expect(value(next.vellum_refresh)).toBe(refreshed.json().data.refreshToken);
    const nextHeader = jar(next);
    const out = await t.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: nextHeader, 'x-csrf-token': value(next.vellum_csrf) },
    });
    expect(out.statusCode).toBe(200);
    expect(Object.values(setCookies(out)).every((c) => c.includes('Max-Age=0'))).toBe(true);
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: value(next.vellum_refresh) } })).statusCode,
    ).toBe(401);
  });

  it('a bearer header wins over a cookie, and needs no CSRF token', async () => {
    const { header } = await cookieLogin();
    const bearer = await t.login(ADMIN.username, ADMIN.password);
    const res = await t.request({
      method: 'POST',
      url: '/api/documents/company',
      headers: { cookie: header, authorization: `Bearer ${bearer}` },
      payload: { name: 'Bearer Co' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('without security.cookie, cookies are ignored', async () => {
    const plain = await startTestApp();
    try {
      const token = await plain.login(ADMIN.username, ADMIN.password);
      expect((await plain.request({ method: 'GET', url: '/api/auth/me', headers: { cookie: `vellum_access=${token}` } })).statusCode).toBe(
        401,
      );
    } finally {
      await plain.close();
    }
  });
});
