import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

// The studio's first page downloads at most 200 KB (docs/studio.md, "Building"): what a browser
// receives for index.html and what it loads (scripts, module preloads, style sheets), in the
// coding it asks for, as the server sends it. Every other page is a chunk of its own.
const LIMIT = 200 * 1024;
const BROWSER = 'gzip, deflate, br, zstd';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({});
});
afterAll(() => t?.close());

const get = (url: string) => t.request({ method: 'GET', url, headers: { 'accept-encoding': BROWSER } });

describe('studio bundle size', () => {
  it('the first page downloads at most 200 KB, every file of it compressed', async () => {
    const page = await get('/studio/');
    expect(page.statusCode).toBe(200);
    const html = page.body;
    expect(html, 'the studio is built (npm run build)').toContain('/studio/assets/');
    const files = [
      ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="(?:modulepreload|stylesheet)"[^>]*\shref)="(\/studio\/[^"]+)"/g),
    ].map((m) => m[1]);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    let bytes = page.rawPayload.length;
    let plain = bytes;
    for (const file of files) {
      const res = await get(file);
      const uncompressed = (await t.request({ method: 'GET', url: file })).rawPayload.length;
      expect(res.statusCode, file).toBe(200);
      // From 1 KiB every file goes out coded: the build compressed it (packages/studio/scripts/precompress.mjs).
      if (uncompressed >= 1024) expect(res.headers['content-encoding'], file).toBe('br');
      bytes += res.rawPayload.length;
      plain += uncompressed;
    }
    console.log(
      `studio first page: ${files.length + 1} files, ${(bytes / 1024).toFixed(1)} KB sent (${(plain / 1024).toFixed(1)} KB uncompressed)`,
    );
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });
});
