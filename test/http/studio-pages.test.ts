import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

// The built studio at /studio (docs/studio.md, "Serving"): hashed assets cached for a year,
// index.html for every other path, the API base path written into the page, no framing.
let t: TestApp;

describe('studio pages', () => {
  beforeAll(async () => {
    t = await startTestApp({ server: { basePath: '/cms-api' } });
  });
  afterAll(() => t.close());

  it('every studio address serves index.html, not cached, calling the API under the configured base path, never framed', async () => {
    for (const url of [
      '/studio',
      '/studio/',
      '/studio/documents/post',
      '/studio/auth/device?code=ABCD-EFGH',
      '/studio/auth/authorize?client_id=x',
    ]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<meta name="vellum-api" content="/cms-api" />');
      expect(res.body).toMatch(/<script type="module" crossorigin src="\/studio\/assets\/index-[\w-]+\.js"><\/script>/);
      // Clickjacking: the approve button must not be framed by another site.
      expect(res.headers['x-frame-options']).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
    }
  });

  it('without preview URLs the policy names no frame-src (default-src applies)', async () => {
    const csp = String((await t.request({ method: 'GET', url: '/studio/' })).headers['content-security-policy']);
    expect(csp).not.toContain('frame-src');
  });

  it('hashed assets are served with their type and cached as immutable for a year; an unknown one is 404', async () => {
    const html = (await t.request({ method: 'GET', url: '/studio/' })).body;
    const script = /src="(\/studio\/assets\/[^"]+\.js)"/.exec(html)![1];
    const style = /href="(\/studio\/assets\/[^"]+\.css)"/.exec(html)![1];
    const js = await t.request({ method: 'GET', url: script });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await t.request({ method: 'GET', url: style });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const missing = await t.request({ method: 'GET', url: '/studio/assets/nope-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-cache');
  });

  it("a missing asset is 404 in the API's error body, as JSON", async () => {
    const missing = await t.request({ method: 'GET', url: '/studio/assets/nope-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('/studio/assets/nope-123.js') } });
    expect(missing.headers['x-frame-options']).toBe('DENY');
  });

  it('a path climbing out of the build is only ever a studio page', async () => {
    for (const url of ['/studio/../package.json', '/studio/%2e%2e/package.json', '/studio/assets/..%2f..%2fpackage.json']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.body, url).not.toContain('"name": "@vellum/studio"');
    }
  });
});

describe('studio pages with preview URLs', () => {
  let p: TestApp;
  beforeAll(async () => {
    const fields = [
      { name: 'title', type: 'string' },
      { name: 'slug', type: 'slug', source: 'title' },
    ];
    p = await startTestApp({
      schemas: [
        { name: 'post', title: 'Post', fields, preview: { url: 'https://site.example/blog/{slug}?preview={token}' } },
        { name: 'page', title: 'Page', fields, preview: { url: 'https://site.example:8443/{slug}?preview={token}' } },
        { name: 'note', title: 'Note', fields, preview: { url: 'https://site.example/notes/{_id}?preview={token}' } },
        // A placeholder in the host names no fixed origin: it is left out of frame-src.
        { name: 'shop', title: 'Shop', fields, preview: { url: 'https://{slug}.shops.example/?preview={token}' } },
        { name: 'plain', title: 'Plain', fields },
      ],
    });
  });
  afterAll(() => p.close());

  it("the page may frame the schemas' preview origins (docs/preview.md), each once, and is still never framed itself", async () => {
    const res = await p.request({ method: 'GET', url: '/studio/documents/post/x' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-src 'self' https://site.example https://site.example:8443;");
    expect(csp).not.toContain('shops.example');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
