import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

// What /studio serves until the studio is built: the placeholder, and the interim page that signs
// a user in and approves a device or an authorization request (docs/oauth2.md, "The approval page").
let t: TestApp;

describe('studio pages', () => {
  beforeAll(async () => {
    t = await startTestApp({ server: { basePath: '/cms-api' } });
  });
  afterAll(() => t.close());

  it('the device and consent addresses serve the approval page, calling the API under the configured base path', async () => {
    for (const url of ['/studio/auth/device?code=ABCD-EFGH', '/studio/auth/authorize?client_id=x']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<meta name="vellum-api" content="/cms-api">');
      expect(res.body).toContain('/auth/device/verify');
      // Clickjacking: the approve button must not be framed by another site.
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    }
  });

  it('other studio addresses serve the placeholder page', async () => {
    const res = await t.request({ method: 'GET', url: '/studio/documents/post' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Vellum Studio');
    expect(res.body).not.toContain('vellum-api');
  });
});
