import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { pdf, png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * The edges of the HTTP stack (docs/api.md, "Errors"): whatever the framework or Node's parser
 * refuses still leaves in the spec's error body `{error: {code, message}}`.
 */

let t: TestApp;
let admin: string;
const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-edge-'));

useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, media: { dir: mediaDir } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

function multipartBody(parts: string[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'vellum-test-boundary';
  const payload = Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`, 'latin1');
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a multipart part without a name', () => {
  it('a field part with no name → 400 INVALID_INPUT', async () => {
    const body = multipartBody(['Content-Disposition: form-data\r\n\r\nsome value']);
    const res = await t.request({ method: 'POST', url: '/api/media', token: admin, ...body });
    expectSpecError(res, 400, 'INVALID_INPUT');
  });

  it('a file part with no name → 400 INVALID_INPUT', async () => {
    const body = multipartBody(['Content-Disposition: form-data; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello']);
    const res = await t.request({ method: 'POST', url: '/api/media', token: admin, ...body });
    expectSpecError(res, 400, 'INVALID_INPUT');
  });
});

/** Sends bytes on a fresh socket and reads the whole answer (the server closes the connection). */
async function rawRequest(bytes: Buffer | string): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  const address = t.app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(address.port, '127.0.0.1', () => socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
  const text = received.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split + 4);
  expect(Number(headers['content-length']), text).toBe(Buffer.byteLength(body));
  return { statusCode: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]), headers, body };
}

describe('errors raised before routing (Node parser)', () => {
  it('listens on a real socket', async () => {
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const res = await rawRequest('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a 0xFF byte in the path → 400 INVALID_INPUT', async () => {
    const res = await rawRequest(
      Buffer.concat([Buffer.from('GET /api/documents/post/'), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]),
    );
    expectSpecError(res, 400, 'INVALID_INPUT');
  });

  it('a control character in a header → 400 INVALID_INPUT', async () => {
    const res = await rawRequest('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\u0001b\r\n\r\n');
    expectSpecError(res, 400, 'INVALID_INPUT');
  });

  it('a malformed chunked body → 400 INVALID_INPUT', async () => {
    const res = await rawRequest(
      'POST /api/documents/post HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${admin}\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{"title":"x"}\r\n0\r\n\r\n`,
    );
    expectSpecError(res, 400, 'INVALID_INPUT');
  });

  it('headers over the limit → 431 HEADERS_TOO_LARGE', async () => {
    const res = await rawRequest(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expectSpecError(res, 431, 'HEADERS_TOO_LARGE');
  });
});

describe('query strings and paths', () => {
  it.each([
    '/api/documents/post?search=%ZZ',
    '/api/documents/post?limit=10&search=%E0%A4',
    '/api/media?search=%G1',
    '/api/health?x=%E2%82',
  ])('a malformed percent-escape in the query (%s) → 400 INVALID_INPUT', async (url) => {
    expectSpecError(await t.request({ method: 'GET', url, token: admin }), 400, 'INVALID_INPUT');
  });

  it('well-formed escapes in the query still work', async () => {
    const res = await t.request({ method: 'GET', url: `/api/documents/post?search=${encodeURIComponent('café 100%')}`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('GET /documents/post/ and /collections/post/ (trailing slash) are the list', async () => {
    const created = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'trailing slash' } });
    expect(created.statusCode, created.body).toBe(201);
    for (const base of ['/api/documents/post', '/api/collections/post']) {
      const plain = await t.request({ method: 'GET', url: base, token: admin });
      const slash = await t.request({ method: 'GET', url: `${base}/`, token: admin });
      expect(slash.statusCode, slash.body).toBe(200);
      expect(slash.json().meta).toEqual(plain.json().meta);
      expect(slash.json().data.map((d: { _id: string }) => d._id)).toContain(created.json().data._id);
    }
  });

  it('GET /media?type=image is the same as type=image/', async () => {
    const upload = async (file: Buffer, filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([file]), filename);
      const req = new Request('http://localhost/', { method: 'POST', body: form });
      const res = await t.request({
        method: 'POST',
        url: '/api/media',
        token: admin,
        headers: { 'content-type': req.headers.get('content-type') as string },
        payload: Buffer.from(await req.arrayBuffer()),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data._id as string;
    };
    const image = await upload(await png(8, 8), 'a.png');
    const doc = await upload(pdf(), 'a.pdf');
    const bare = await t.request({ method: 'GET', url: '/api/media?type=image', token: admin });
    const prefix = await t.request({ method: 'GET', url: '/api/media?type=image/', token: admin });
    expect(bare.statusCode, bare.body).toBe(200);
    const ids = bare.json().data.map((m: { _id: string }) => m._id);
    expect(ids).toContain(image);
    expect(ids).not.toContain(doc);
    expect(ids).toEqual(prefix.json().data.map((m: { _id: string }) => m._id));
  });
});
