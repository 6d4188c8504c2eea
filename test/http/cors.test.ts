import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../packages/server/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * `server.cors` (docs/api.md, "CORS"): preflights are answered for the configured origins and for
 * the studio's own origin (`server.publicUrl`), never for others.
 */

const APP = 'https://app.example';
const STUDIO = 'https://cms.example';
const EVIL = 'https://evil.example';

const preflight = (t: TestApp, origin: string, method = 'PUT', headers = 'authorization, content-type, if-match') =>
  t.request({
    method: 'OPTIONS',
    url: '/api/documents/post/some-id',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const list = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe('a list of origins and a public URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ server: { cors: [APP], publicUrl: `${STUDIO}/` } });
  });
  afterAll(() => t?.close());

  it('a preflight from an allowed origin → 204 with the allowed origin, methods and headers', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await preflight(t, APP, method);
      expect(res.statusCode, method).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(list(res.headers['access-control-allow-methods'])).toContain(method.toLowerCase());
      expect(list(res.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'if-match', 'if-none-match', 'x-csrf-token']),
      );
      expect(list(res.headers.vary)).toContain('origin');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('a request from an allowed origin gets the origin and the exposed headers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health', headers: { origin: APP } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(list(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(['etag', 'x-request-id', 'location']));
  });

  it('the studio origin (server.publicUrl) is allowed too', async () => {
    const res = await preflight(t, STUDIO);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(STUDIO);
  });

  it('another origin gets no allow-origin header', async () => {
    const res = await preflight(t, EVIL);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.request({ method: 'GET', url: '/api/health', headers: { origin: EVIL } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ server: { cors: { origins: [APP], credentials: true } } });
  });
  afterAll(() => t?.close());

  it('an allowed origin gets access-control-allow-credentials: true', async () => {
    const res = await preflight(t, APP);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    const get = await t.request({ method: 'GET', url: '/api/health', headers: { origin: APP } });
    expect(get.headers['access-control-allow-credentials']).toBe('true');
  });

  it('another origin gets neither header', async () => {
    const res = await preflight(t, EVIL);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('the default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ server: { publicUrl: `${STUDIO}/vellum` } });
  });
  afterAll(() => t?.close());

  it('with server.cors unset, the studio origin is allowed and nothing else', async () => {
    const studio = await preflight(t, STUDIO);
    expect(studio.statusCode).toBe(204);
    expect(studio.headers['access-control-allow-origin']).toBe(STUDIO);
    const other = await preflight(t, APP);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('configuration', () => {
  const resolve = (cors: unknown) => resolveConfig({ server: { cors } }, {}).server.cors;
  const problems = (cors: unknown) => {
    try {
      resolve(cors);
    } catch (err) {
      if (err instanceof ConfigError) return err.problems.join('\n');
      throw err;
    }
    return '';
  };

  it('accepts false, true, an origin, a list and {origins, credentials}', () => {
    expect(resolve(undefined)).toEqual({ origins: [], credentials: false });
    expect(resolve(false)).toEqual({ origins: [], credentials: false });
    expect(resolve(true)).toEqual({ origins: true, credentials: false });
    expect(resolve(APP)).toEqual({ origins: [APP], credentials: false });
    expect(resolve([APP, `${STUDIO}/`])).toEqual({ origins: [APP, STUDIO], credentials: false });
    expect(resolve({ origins: APP, credentials: true })).toEqual({ origins: [APP], credentials: true });
  });

  it('refuses what is not an origin, and credentials for any origin', () => {
    expect(problems('app.example')).toContain('server.cors');
    expect(problems([`${APP}/path`])).toContain('server.cors');
    expect(problems({ origins: [APP], credentials: 'yes' })).toContain('server.cors.credentials');
    expect(problems({ origins: true, credentials: true })).toContain('server.cors.credentials');
    expect(problems({ origin: [APP] })).toContain('server.cors');
  });
});
