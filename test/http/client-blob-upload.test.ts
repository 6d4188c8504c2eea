import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBlobBody, VellumClient, type UploadSource } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';

/**
 * `uploadMedia` with a Blob or File sends the multipart body as a Blob of [head, file, tail]
 * (docs/client.md, "Browsers and Node"): fetch gives it a Content-Length, and it is never a
 * chunked stream. An `UploadSource` is still streamed, with its length announced.
 */
let t: TestApp;
let mediaDir: string;
let proxy: Server;
let baseUrl: string;
/** What reached the network for each request: the headers the proxy received. */
const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
/** What the client handed to fetch for each request. */
const bodies: Array<{ url: string; body: unknown; duplex: unknown }> = [];

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'vellum-client-blob-'));
  t = await startTestApp({ media: { dir: mediaDir } });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const target = (t.app.server.server.address() as AddressInfo).port;
  // A plain HTTP proxy that notes each request's headers as they arrived on the wire.
  proxy = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const upstream = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

async function signedIn(): Promise<VellumClient> {
  const client = new VellumClient({
    baseUrl,
    fetch: (input, init) => {
      bodies.push({ url: String(input), body: init?.body, duplex: (init as { duplex?: unknown } | undefined)?.duplex });
      return fetch(input, init);
    },
  });
  expect((await client.login(ADMIN.username, ADMIN.password)).kind).toBe('signedIn');
  return client;
}

const lastUpload = () => {
  const wire = seen.filter((s) => s.method === 'POST' && s.url === '/api/media').at(-1)!;
  const handed = bodies.filter((b) => b.url.endsWith('/api/media')).at(-1)!;
  return { wire, handed };
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('uploadMedia with a Blob', () => {
  it('sends a Blob body with Content-Length (never chunked); the server stores the bytes', async () => {
    const client = await signedIn();
    const image = await png(30, 20);
    const progress: Array<[number, number]> = [];
    const media = await client.uploadMedia(new Blob([image], { type: 'image/png' }), {
      filename: 'blob.png',
      alt: 'A blob',
      title: 'Blob title',
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    expect(media).toMatchObject({
      originalFilename: 'blob.png',
      mimeType: 'image/png',
      width: 30,
      size: image.length,
      alt: 'A blob',
      title: 'Blob title',
    });
    expect(media.sha256).toBe(sha256(image));
    const { wire, handed } = lastUpload();
    expect(handed.body).toBeInstanceOf(Blob);
    expect(handed.duplex).toBeUndefined();
    expect(wire.headers['transfer-encoding']).toBeUndefined();
    expect(Number(wire.headers['content-length'])).toBe((handed.body as Blob).size);
    expect(wire.headers['content-type']).toMatch(/^multipart\/form-data; boundary=----VellumBoundary[0-9a-f]{32}$/);
    // fetch reports nothing while a Blob goes: one call, once all of it was sent.
    expect(progress).toEqual([[(handed.body as Blob).size, (handed.body as Blob).size]]);
  });

  it('a File keeps its name; the body is head, the file and tail, the file part byte for byte', async () => {
    const client = await signedIn();
    const image = await png(12, 8);
    const media = await client.uploadMedia(new File([image], 'from-a-file.png', { type: 'image/png' }));
    expect(media).toMatchObject({ originalFilename: 'from-a-file.png', width: 12, size: image.length });
    const { wire, handed } = lastUpload();
    expect(Number(wire.headers['content-length'])).toBe((handed.body as Blob).size);

    const { body, length, contentType } = multipartBlobBody(new File([image], 'x.png', { type: 'image/png' }), { alt: 'Alt' });
    const bytes = new Uint8Array(await body.arrayBuffer());
    expect(length).toBe(bytes.length);
    const boundary = contentType.split('boundary=')[1];
    const text = Buffer.from(bytes).toString('latin1');
    const start = text.indexOf('\r\n\r\n') + 4;
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"`)).toBe(true);
    expect(Buffer.from(bytes.subarray(start, start + image.length)).equals(Buffer.from(image))).toBe(true);
    expect(text.slice(start + image.length)).toBe(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nAlt\r\n--${boundary}--\r\n`,
    );
  });

  it('an UploadSource is still streamed, with its length announced', async () => {
    const client = await signedIn();
    const image = await png(16, 9);
    const source: UploadSource = {
      name: 'streamed.png',
      size: image.length,
      type: 'image/png',
      async open() {
        let done = false;
        return {
          next: async () => (done ? undefined : ((done = true), image)),
          close: async () => undefined,
        };
      },
    };
    const media = await client.uploadMedia(source);
    expect(media).toMatchObject({ originalFilename: 'streamed.png', width: 16, size: image.length });
    const { wire, handed } = lastUpload();
    expect(handed.body).toBeInstanceOf(ReadableStream);
    expect(handed.duplex).toBe('half');
    expect(wire.headers['transfer-encoding']).toBeUndefined();
    expect(Number(wire.headers['content-length'])).toBeGreaterThan(image.length);
  });
});
