import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { png } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { form } from '../helpers/oauth2.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * A request body's `Content-Encoding` (docs/api.md, "Errors"): Vellum applies no content coding to
 * what it receives, so any coding but `identity` is 415 `UNSUPPORTED_MEDIA_TYPE` with
 * `Accept-Encoding: identity` (RFC 9110 §8.4.1, §15.5.16), before the body is read. Before, the
 * header was ignored and a body labelled gzip was parsed as if it were plain.
 */

let t: TestApp;
let admin: string;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'vellum-content-encoding-'));
  t = await startTestApp({
    schemas: TEST_SCHEMAS,
    media: { dir: mediaDir },
    oauth2: { enabled: true, issuer: 'http://127.0.0.1:9' },
  });
  admin = await t.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const titles = async () => {
  const res = await t.request({ method: 'GET', url: '/api/documents/post?limit=100', token: admin });
  return (res.json().data as Array<{ title: string }>).map((d) => d.title);
};

function postJson(payload: string | Buffer, contentEncoding: string) {
  return t.request({
    method: 'POST',
    url: '/api/documents/post',
    token: admin,
    headers: { 'content-type': 'application/json', 'content-encoding': contentEncoding },
    payload,
  });
}

function expectRefusedCoding(res: Awaited<ReturnType<TestApp['request']>>): void {
  const error = expectSpecError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  expect(error.message).toMatch(/Content-Encoding/);
  expect(res.headers['accept-encoding']).toBe('identity');
}

describe('a JSON body with a Content-Encoding', () => {
  it('labelled gzip but sent plain is refused, not parsed as plain JSON', async () => {
    expectRefusedCoding(await postJson(JSON.stringify({ title: 'labelled gzip' }), 'gzip'));
    expect(await titles()).not.toContain('labelled gzip');
  });

  it('really gzipped is refused too: no coding is applied to request bodies', async () => {
    expectRefusedCoding(await postJson(gzipSync(JSON.stringify({ title: 'really gzipped' })), 'gzip'));
    expect(await titles()).not.toContain('really gzipped');
  });

  it('a compression bomb (16 MiB of JSON in 16 KiB of gzip) is refused unread', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"title":"'), Buffer.alloc(16 * 1024 * 1024, 'a'), Buffer.from('"}')]), {
      level: 9,
    });
    expect(bomb.length).toBeLessThan(t.app.services.config.server.bodyLimit);
    expectRefusedCoding(await postJson(bomb, 'gzip'));
  });

  it.each(['deflate', 'br', 'zstd', 'compress', 'x-made-up', 'identity, gzip', 'GZIP'])('%s is refused', async (coding) => {
    expectRefusedCoding(await postJson(JSON.stringify({ title: `coding ${coding}` }), coding));
    expect(await titles()).not.toContain(`coding ${coding}`);
  });

  it('identity is the body as sent: accepted', async () => {
    const res = await postJson(JSON.stringify({ title: 'identity coding' }), 'identity');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.title).toBe('identity coding');
  });
});

describe('a multipart upload with a Content-Encoding', () => {
  it('gzip is refused before the body is read, and nothing is stored', async () => {
    const form = await multipartUpload(await png(8, 8), 'pixel.png', { alt: 'encoded upload' });
    const res = await t.request({
      method: 'POST',
      url: '/api/media',
      token: admin,
      headers: { ...form.headers, 'content-encoding': 'gzip' },
      payload: gzipSync(form.payload),
    });
    expectRefusedCoding(res);
    const list = await t.request({ method: 'GET', url: '/api/media', token: admin });
    expect((list.json().data as Array<{ alt: string | null }>).map((m) => m.alt)).not.toContain('encoded upload');
  });

  it('identity is accepted', async () => {
    const form = await multipartUpload(await png(8, 8), 'pixel.png', { alt: 'identity upload' });
    const res = await t.request({
      method: 'POST',
      url: '/api/media',
      token: admin,
      headers: { ...form.headers, 'content-encoding': 'identity' },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.alt).toBe('identity upload');
  });
});

describe('an OAuth form body with a Content-Encoding', () => {
  it('is refused with 415 in the RFC 6749 §5.2 shape the endpoint speaks', async () => {
    const body = form({ client_id: 'service-cli' });
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/device',
      headers: { ...body.headers, 'content-encoding': 'gzip' },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/Content-Encoding/) });
    expect(res.headers['accept-encoding']).toBe('identity');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the same body without it is answered', async () => {
    const body = form({ client_id: 'service-cli' });
    const res = await t.request({ method: 'POST', url: '/api/auth/device', ...body });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('requests whose body is never read', () => {
  it('a GET with the header and no body is answered as usual', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health', headers: { 'content-encoding': 'gzip' } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a DELETE with an encoded body is decided by the caller, as every DELETE body is ignored', async () => {
    const created = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'to delete' } });
    const id = created.json().data._id as string;
    const res = await t.request({
      method: 'DELETE',
      url: `/api/documents/post/${id}`,
      token: admin,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{}'),
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
