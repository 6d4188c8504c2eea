import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Response compression (docs/api.md, "Compression"): bodies of at least 1 KiB leave in the coding
 * the client accepts best, with `Vary: Accept-Encoding` and the same ETag; the response cache
 * keeps the coded bytes; the studio's files go out as the build compressed them.
 */
const app = {} as { t: TestApp; admin: string };
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS }),
  (t, token) => ((app.t = t), (app.admin = token)),
);

const get = (url: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
  app.t.request({ method: 'GET', url, headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...extra } });

const decode = (coding: string | undefined, bytes: Buffer) =>
  coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;

async function seedPosts(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await app.t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: app.admin,
      payload: { title: `Compressed post ${i}`, body: 'A paragraph that repeats. '.repeat(60), _status: 'published' },
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().data._id);
  }
  return ids;
}

describe('response compression', () => {
  it('codes a list in br or gzip as accepted, identity otherwise; each decodes to the same JSON; Vary names Accept-Encoding', async () => {
    await seedPosts(12);
    const url = '/api/documents/post?limit=12&order=asc';
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // No Accept-Encoding: nothing was negotiated, so nothing varies.
    expect(plain.headers.vary).toBeUndefined();
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0, br;q=0', undefined],
      ['identity', undefined],
    ] as const) {
      const res = await get(url, accept);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      const body = decode(coding, res.rawPayload);
      expect(JSON.parse(body.toString()), accept).toEqual(plain.json());
      if (coding) expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
  });

  it('a cached read is served in the coding asked, byte-identical to the first, with the same ETag; If-None-Match → 304', async () => {
    const [id] = await seedPosts(1);
    const url = `/api/documents/post/${id}`;
    const first = await get(url, 'br');
    const again = await get(url, 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const gzip = await get(url, 'gzip');
    const plain = await get(url);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
    // One ETag whatever the coding: it names the revision an If-Match compares.
    expect(new Set([first.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(1);
    const notModified = await get(url, 'br', { 'if-none-match': String(first.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    // The ETag of a compressed read guards a write as any other does.
    const patched = await app.t.request({
      method: 'PATCH',
      url: `/api/documents/post/${id}`,
      token: app.admin,
      headers: { 'if-match': String(first.headers.etag), 'accept-encoding': 'br' },
      payload: { title: 'Patched through a compressed read' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await get(url, 'br');
    expect(JSON.parse(brotliDecompressSync(after.rawPayload).toString()).data.title).toBe('Patched through a compressed read');
  });

  it('leaves small bodies alone', async () => {
    const health = await get('/api/health', 'br, gzip');
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('errors and the OpenAPI document are compressed too', async () => {
    const openapi = await get('/api/openapi.json', 'gzip');
    expect(openapi.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(openapi.rawPayload).toString()).openapi).toMatch(/^3\./);
  });

  it('serves the studio’s files as the build compressed them', async () => {
    const dist = join(dirname(createRequire(import.meta.url).resolve('@vellum/studio/package.json')), 'dist');
    // The page is small (half a KiB): it goes as it is.
    const page = await get('/studio/', 'br');
    const html = decode(page.headers['content-encoding'] as string | undefined, page.rawPayload).toString();
    const script = /src="\/studio\/(assets\/[^"]+\.js)"/.exec(html)![1];
    const built = readFileSync(join(dist, script));
    const br = await get(`/studio/${script}`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(readFileSync(join(dist, `${script}.br`)))).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).equals(built)).toBe(true);
    const gz = await get(`/studio/${script}`, 'gzip');
    expect(gunzipSync(gz.rawPayload).equals(built)).toBe(true);
    const plain = await get(`/studio/${script}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(built)).toBe(true);
    // The coded copies are not files of their own.
    expect((await get(`/studio/${script}.br`)).statusCode).toBe(404);
  });
});

describe('compression off', () => {
  it('server.compression: false sends every body as it is', async () => {
    const t = await startTestApp({ schemas: TEST_SCHEMAS, server: { compression: false } });
    try {
      const res = await t.request({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json().openapi).toMatch(/^3\./);
    } finally {
      await t.close();
    }
  });
});
