import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { detailFields } from '../helpers/expect-error.js';
import { bombPng, exifHasGps, gif, htmlAsPng, jpeg, pdf, png, randomBinary, svg, webp } from '../helpers/media-fixtures.js';
import { startS3Server, s3MediaConfig, S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY } from '../helpers/s3-server.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

const MAX_FILE_SIZE = 2 * 1024 * 1024;

/** A type whose fields hold media: one image, one PDF-only file, a gallery of images. */
const PAGE = {
  name: 'page',
  fields: [
    { name: 'title', type: 'string', required: true },
    { name: 'cover', type: 'image' },
    { name: 'attachment', type: 'file', accept: ['application/pdf'] },
    { name: 'gallery', type: 'array', of: { type: 'image' } },
  ],
};

/** A multipart body built by the platform's own FormData encoder, as browsers and the CLI send it. */
async function multipart(parts: Array<[string, string] | [string, Buffer, string]>): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const p of parts) {
    if (p.length === 2) form.append(p[0], p[1]);
    else form.append(p[0], new Blob([p[1]]), p[2]);
  }
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') as string };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const withType = (m: { payload: Buffer; contentType: string }) => ({ payload: m.payload, headers: { 'content-type': m.contentType } });

describe.each(['local', 's3'] as const)('media library on %s storage', (storage) => {
  let t: TestApp;
  let admin: string;
  let mediaDir: string;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'vellum-media-test-'));
    let media: Record<string, unknown> = { dir: mediaDir, maxFileSize: MAX_FILE_SIZE };
    if (storage === 's3') {
      s3 = await startS3Server();
      media = { ...s3MediaConfig(s3), maxFileSize: MAX_FILE_SIZE };
    }
    t = await startTestApp({ schemas: [...TEST_SCHEMAS, PAGE], media });
    admin = await t.login(ADMIN.username, ADMIN.password);
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  /** What is really in the directory or the bucket, read past the store under test. */
  async function stored(): Promise<string[]> {
    if (storage === 'local') return readdirSync(mediaDir);
    const client = new S3Client({
      endpoint: s3!.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY },
    });
    try {
      const res = await client.send(new ListObjectsV2Command({ Bucket: s3!.bucket, MaxKeys: 1000 }));
      return (res.Contents ?? []).map((o) => o.Key as string);
    } finally {
      client.destroy();
    }
  }

  async function upload(file: Buffer | undefined, filename: string, fields: Record<string, string> = {}, token: string | null = admin) {
    const parts: Array<[string, string] | [string, Buffer, string]> = Object.entries(fields);
    if (file) parts.unshift(['file', file, filename]);
    const { payload, contentType } = await multipart(parts);
    return t.request({ method: 'POST', url: '/api/media', payload, headers: { 'content-type': contentType }, token: token ?? undefined });
  }

  async function uploaded(file: Buffer, filename: string, fields: Record<string, string> = {}): Promise<Media> {
    const res = await upload(file, filename, fields);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Media;
  }

  const fetchFile = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

  async function servedSize(url: string) {
    const res = await fetchFile(url);
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    return { width: meta.width, height: meta.height, format: meta.format, exif: meta.exif, orientation: meta.orientation };
  }

  describe('upload', () => {
    it('stores a PNG with every field of the record and serves variants of the promised sizes', async () => {
      const bytes = await png(1200, 900);
      const m = await uploaded(bytes, 'Holiday photo.png', { alt: 'A beach', title: 'Holiday' });
      expect(m).toMatchObject({
        originalFilename: 'Holiday photo.png',
        mimeType: 'image/png',
        size: bytes.length,
        width: 1200,
        height: 900,
        alt: 'A beach',
        title: 'Holiday',
        sha256: sha256(bytes),
      });
      expect(m.filename).toBe(`${m._id}.png`);
      expect(m.url).toBe(`/api/media/files/${m.filename}`);
      expect(Object.keys(m.variants).sort()).toEqual(['medium', 'thumb']);
      expect(m.placeholder).toMatch(/^data:image\/\w+;base64,/);
      expect(m.dominantColor).toMatch(/^#[0-9a-f]{6}$/);
      expect(new Date(m.createdAt).toISOString()).toBe(m.createdAt);

      const original = await fetchFile(m.url);
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-type']).toBe('image/png');
      expect(Number(original.headers['content-length'])).toBe(bytes.length);
      expect(original.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(original.headers['x-content-type-options']).toBe('nosniff');
      expect(original.headers.etag).toMatch(/^".+"$/);
      expect(sha256(original.rawPayload)).toBe(m.sha256);

      expect(await servedSize(m.variants.thumb)).toMatchObject({ width: 200, height: 200, format: 'webp' });
      expect(await servedSize(m.variants.medium)).toMatchObject({ width: 800, height: 600, format: 'webp' });
      const thumb = await fetchFile(m.variants.thumb);
      expect(thumb.headers['content-type']).toBe('image/webp');

      const again = await t.request({ method: 'GET', url: `/api/media/${m._id}` });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual(m);
    });

    it('applies the EXIF rotation of a JPEG and strips EXIF and GPS from its variants', async () => {
      // Stored 400×300 landscape, displayed rotated 90° (orientation 6): a 300×400 portrait.
      const bytes = await jpeg(1600, 1200, { orientation: 6, gps: true });
      const meta = await sharp(bytes).metadata();
      expect(meta.orientation).toBe(6);
      expect(exifHasGps(meta.exif as Buffer)).toBe(true);
      const m = await uploaded(bytes, 'camera.jpg');
      expect(m).toMatchObject({ mimeType: 'image/jpeg', width: 1200, height: 1600 });
      const medium = await servedSize(m.variants.medium);
      expect(medium).toMatchObject({ width: 800, height: Math.round((1600 * 800) / 1200), format: 'webp' });
      expect(medium.exif).toBeUndefined();
      expect(medium.orientation).toBeUndefined();
      const thumb = await servedSize(m.variants.thumb);
      expect(thumb).toMatchObject({ width: 200, height: 200 });
      expect(thumb.exif).toBeUndefined();
    });

    it('makes variants of WebP and GIF, and never enlarges a small image', async () => {
      const w = await uploaded(await webp(1000, 500), 'wide.webp');
      expect(w).toMatchObject({ mimeType: 'image/webp', width: 1000, height: 500 });
      expect(await servedSize(w.variants.medium)).toMatchObject({ width: 800, height: 400 });
      const g = await uploaded(await gif(300, 240), 'small.gif');
      expect(g).toMatchObject({ mimeType: 'image/gif', width: 300, height: 240 });
      expect(await servedSize(g.variants.medium)).toMatchObject({ width: 300, height: 240 });
      expect(await servedSize(g.variants.thumb)).toMatchObject({ width: 200, height: 200 });
    });

    it('stores a PDF without variants and serves it as a download', async () => {
      const bytes = pdf();
      const m = await uploaded(bytes, 'report.pdf', { title: 'Annual report' });
      expect(m).toMatchObject({ mimeType: 'application/pdf', size: bytes.length, variants: {} });
      expect(m.width).toBeUndefined();
      expect(m.filename).toBe(`${m._id}.pdf`);
      const res = await fetchFile(m.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.equals(bytes)).toBe(true);
    });

    it('accepts an SVG but serves it only as a sandboxed attachment', async () => {
      const m = await uploaded(svg(), 'logo.svg');
      expect(m).toMatchObject({ mimeType: 'image/svg+xml', variants: {} });
      const res = await fetchFile(m.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers['content-security-policy']).toMatch(/sandbox/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('sniffs the type from the bytes: a .png that is really HTML is refused with 415, nothing kept', async () => {
      const before = (await stored()).length;
      const rows = (await t.request({ method: 'GET', url: '/api/media' })).json().meta.total;
      const res = await upload(htmlAsPng(), 'innocent.png');
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect((await stored()).length).toBe(before);
      const bin = await upload(randomBinary(), 'data.png');
      expect(bin.statusCode).toBe(415);
      expect((await stored()).length).toBe(before);
      expect((await t.request({ method: 'GET', url: '/api/media' })).json().meta.total).toBe(rows);
    });

    it('refuses a file over media.maxFileSize with 413 and leaves no file or row behind', async () => {
      const files = (await stored()).length;
      const rows = (await t.request({ method: 'GET', url: '/api/media' })).json().meta.total;
      const res = await upload(Buffer.concat([pdf(), randomBinary(MAX_FILE_SIZE)]), 'big.pdf');
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      expect((await stored()).length).toBe(files);
      expect((await t.request({ method: 'GET', url: '/api/media' })).json().meta.total).toBe(rows);
    });

    it('refuses a decompression bomb with 422 without processing it', async () => {
      const bomb = bombPng();
      expect(bomb.length).toBeLessThan(200_000);
      const before = (await stored()).length;
      const res = await upload(bomb, 'bomb.png');
      expect(res.statusCode).toBe(422);
      expect(res.json().error.details[0]).toMatchObject({ field: 'file' });
      expect(res.json().error.details[0].message).toMatch(/20000×20000/);
      expect((await stored()).length).toBe(before);
    });

    it('refuses a file that claims to be an image but cannot be decoded', async () => {
      const bytes = await jpeg(800, 600);
      const res = await upload(bytes.subarray(0, 600), 'truncated.jpg');
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    });

    it('keeps the uploaded name only as sanitised data', async () => {
      // A control character is removed; a NUL is refused like anywhere else (text-entry-points.test.ts).
      const m = await uploaded(pdf(), '../../etc/pa\u0001ss\u202ewd..pdf');
      expect(m.originalFilename).toBe('passwd.pdf');
      expect(m.filename).toBe(`${m._id}.pdf`);
      const win = await uploaded(pdf(), 'C:\\Users\\me\\report.pdf');
      expect(win.originalFilename).toBe('report.pdf');
    });

    it('answers bad multipart bodies with 4xx, never 500', async () => {
      const json = await t.request({ method: 'POST', url: '/api/media', payload: { file: 'x' }, token: admin });
      expect(json.statusCode).toBe(400);
      expect(json.json().error.code).toBe('INVALID_INPUT');
      const noFile = await upload(undefined, '', { alt: 'only text' });
      expect(noFile.statusCode).toBe(422);
      expect(noFile.json().error.details).toEqual([{ field: 'file', message: 'is required' }]);
      const unknown = await upload(pdf(), 'a.pdf', { caption: 'x' });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().error.details[0].field).toBe('caption');
      const { payload, contentType } = await multipart([
        ['file', pdf(), 'a.pdf'],
        ['file', pdf(), 'b.pdf'],
      ]);
      const two = await t.request({ method: 'POST', url: '/api/media', payload, headers: { 'content-type': contentType }, token: admin });
      expect(two.statusCode).toBe(422);
      const cut = payload.subarray(0, payload.length - 60);
      const truncated = await t.request({
        method: 'POST',
        url: '/api/media',
        payload: cut,
        headers: { 'content-type': contentType },
        token: admin,
      });
      expect([400, 422]).toContain(truncated.statusCode);
      const noBoundary = await t.request({
        method: 'POST',
        url: '/api/media',
        payload: 'garbage',
        headers: { 'content-type': 'multipart/form-data' },
        token: admin,
      });
      expect(noBoundary.statusCode).toBe(400);
      const longAlt = await upload(pdf(), 'a.pdf', { alt: 'x'.repeat(1001) });
      expect(longAlt.statusCode).toBe(422);
      expect(longAlt.json().error.details).toEqual([{ field: 'alt', message: 'must be at most 1000 characters' }]);
    });
  });

  describe('chosen ids', () => {
    it('keeps an _id sent before or after the file, and names the stored files after it', async () => {
      const bytes = await png(300, 200);
      const before = await multipart([
        ['_id', 'hero.image_1'],
        ['file', bytes, 'hero.png'],
      ]);
      const res = await t.request({ method: 'POST', url: '/api/media', ...withType(before), token: admin });
      expect(res.statusCode, res.body).toBe(201);
      const m = res.json().data as Media;
      expect(m).toMatchObject({ _id: 'hero.image_1', filename: 'hero.image_1.png', sha256: sha256(bytes) });
      expect(m.variants.thumb).toBe('/api/media/files/hero.image_1-thumb.webp');
      expect((await fetchFile(m.url)).rawPayload.equals(bytes)).toBe(true);
      expect((await t.request({ method: 'GET', url: '/api/media/hero.image_1', token: admin })).json().data.sha256).toBe(sha256(bytes));

      const after = await uploaded(pdf(), 'doc.pdf', { _id: 'manual-2024' });
      expect(after).toMatchObject({ _id: 'manual-2024', filename: 'manual-2024.pdf' });
      expect(await stored()).toEqual(expect.arrayContaining(['hero.image_1.png', 'hero.image_1-thumb.webp', 'manual-2024.pdf']));
    });

    it('answers 409 for a taken id and stores nothing, leaving the holder’s files as they were', async () => {
      const first = await png(64, 64, { r: 200, g: 10, b: 10 });
      const holder = await uploaded(first, 'a.png', { _id: 'taken-id' });
      const filesBefore = (await stored()).sort();

      const again = await upload(await png(64, 64, { r: 10, g: 10, b: 200 }), 'b.png', { _id: 'taken-id' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'CONFLICT', details: [{ field: '_id', message: 'is taken' }] });
      expect((await stored()).sort()).toEqual(filesBefore);
      expect((await fetchFile(holder.url)).rawPayload.equals(first)).toBe(true);
      expect((await fetchFile(holder.variants.thumb)).statusCode).toBe(200);

      // `taken-id-thumb` as a WebP would be stored as `taken-id-thumb.webp`: the holder's variant.
      const variantClash = await upload(await webp(40, 40), 'c.webp', { _id: 'taken-id-thumb' });
      expect(variantClash.statusCode).toBe(409);
      expect((await stored()).sort()).toEqual(filesBefore);
      const listed = await t.request({ method: 'GET', url: `/api/media?sha256=${sha256(first)}`, token: admin });
      expect(listed.json().data.map((x: Media) => x._id)).toEqual(['taken-id']);
    });

    it('answers 422 for an id that is not 1–64 safe characters and stores nothing', async () => {
      const filesBefore = (await stored()).sort();
      for (const bad of ['', 'a/b', '../x', '.hidden', '-x', 'a..b', 'ends.', 'x'.repeat(65), 'sp ace', 'é']) {
        const res = await upload(pdf(), 'a.pdf', { _id: bad });
        expect(res.statusCode, bad).toBe(422);
        expect(res.json().error.details, bad).toEqual([expect.objectContaining({ field: '_id' })]);
      }
      expect((await stored()).sort()).toEqual(filesBefore);
    });
  });

  describe('access', () => {
    it('needs sign-in and media:upload to upload; reads are public', async () => {
      const anonymous = await upload(pdf(), 'a.pdf', {}, null);
      expect(anonymous.statusCode).toBe(401);
      const viewer = await upload(pdf(), 'a.pdf', {}, await t.userToken('viewer'));
      expect(viewer.statusCode).toBe(403);
      const writerToken = await t.userToken('writer');
      const writer = await upload(pdf(), 'a.pdf', {}, writerToken);
      expect(writer.statusCode).toBe(201);
      const id = writer.json().data._id;
      // A writer uploads but neither edits nor deletes (media:edit, media:delete are editor rights).
      expect((await t.request({ method: 'PATCH', url: `/api/media/${id}`, payload: { alt: 'x' }, token: writerToken })).statusCode).toBe(
        403,
      );
      expect((await t.request({ method: 'DELETE', url: `/api/media/${id}`, token: writerToken })).statusCode).toBe(403);
      const editor = await t.userToken('editor');
      expect((await t.request({ method: 'PATCH', url: `/api/media/${id}`, payload: { alt: 'x' }, token: editor })).statusCode).toBe(200);
      expect((await t.request({ method: 'PATCH', url: `/api/media/${id}`, payload: { alt: 'x' } })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url: `/api/media/${id}` })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/media' })).statusCode).toBe(200);
      expect((await t.request({ method: 'DELETE', url: `/api/media/${id}` })).statusCode).toBe(401);
      expect((await t.request({ method: 'DELETE', url: `/api/media/${id}`, token: editor })).statusCode).toBe(200);
    });
  });

  describe('serving', () => {
    let m: Media;
    let bytes: Buffer;
    beforeAll(async () => {
      bytes = pdf();
      m = await uploaded(bytes, 'range.pdf');
    });

    it('answers Range requests with 206 and exact bytes, 416 outside the file', async () => {
      const first = await fetchFile(m.url, { range: 'bytes=0-9' });
      expect(first.statusCode).toBe(206);
      expect(first.headers['content-range']).toBe(`bytes 0-9/${bytes.length}`);
      expect(first.headers['content-length']).toBe('10');
      expect(first.rawPayload.equals(bytes.subarray(0, 10))).toBe(true);
      const middle = await fetchFile(m.url, { range: 'bytes=20-29' });
      expect(middle.rawPayload.equals(bytes.subarray(20, 30))).toBe(true);
      const open = await fetchFile(m.url, { range: `bytes=${bytes.length - 5}-` });
      expect(open.rawPayload.equals(bytes.subarray(bytes.length - 5))).toBe(true);
      const suffix = await fetchFile(m.url, { range: 'bytes=-7' });
      expect(suffix.statusCode).toBe(206);
      expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 7))).toBe(true);
      const outside = await fetchFile(m.url, { range: `bytes=${bytes.length}-` });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
      // A stale If-Range gets the whole file; an unparseable Range is ignored.
      const stale = await fetchFile(m.url, { range: 'bytes=0-9', 'if-range': '"other"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.length).toBe(bytes.length);
      expect((await fetchFile(m.url, { range: 'lines=1-2' })).statusCode).toBe(200);
    });

    it('streams large files (not kept in memory) with the same Range answers', async () => {
      const large = Buffer.concat([pdf(), randomBinary(300_000)]);
      const big = await uploaded(large, 'large.pdf');
      const whole = await fetchFile(big.url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(large)).toBe(true);
      const part = await fetchFile(big.url, { range: 'bytes=200000-200099' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 200000-200099/${large.length}`);
      expect(part.rawPayload.equals(large.subarray(200000, 200100))).toBe(true);
      const tail = await fetchFile(big.url, { range: 'bytes=-10' });
      expect(tail.rawPayload.equals(large.subarray(large.length - 10))).toBe(true);
      const head = await t.request({ method: 'HEAD', url: big.url });
      expect(head.headers['content-length']).toBe(String(large.length));
    });

    it('revalidates with ETag (304) and answers HEAD without a body', async () => {
      const full = await fetchFile(m.url);
      const etag = full.headers.etag as string;
      const cached = await fetchFile(m.url, { 'if-none-match': etag });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
      const head = await t.request({ method: 'HEAD', url: m.url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      expect(head.rawPayload.length).toBe(0);
    });

    it('never serves a file outside the media store, however the path is spelled', async () => {
      if (storage === 'local') writeFileSync(join(mediaDir, '..', 'outside-secret.txt'), 'secret');
      const attempts = [
        '/api/media/files/..%2Foutside-secret.txt',
        '/api/media/files/..%2F..%2F..%2Fetc%2Fpasswd',
        '/api/media/files/%2Fetc%2Fpasswd',
        '/api/media/files/..%5C..%5Cwindows%5Cwin.ini',
        '/api/media/files/..',
        '/api/media/files/.%2E%2Foutside-secret.txt',
        '/api/media/files/%2E%2E%2Foutside-secret.txt',
        '/api/media/files/../../../etc/passwd',
        '/api/media/files/....%2F%2Foutside-secret.txt',
        `/api/media/files/${m.filename}%00.txt`,
        `/api/media/files/${m.filename}%2F..%2F..%2Foutside-secret.txt`,
        '/api/media/files/%252e%252e%252foutside-secret.txt',
        '/api/media/files/.hidden',
      ];
      for (const url of attempts) {
        const res = await fetchFile(url);
        expect([400, 404], url).toContain(res.statusCode);
        expect(res.body).not.toContain('secret');
        expect(res.body).not.toContain('root:');
      }
      expect((await fetchFile('/api/media/files/00000000-0000-7000-8000-000000000000.png')).statusCode).toBe(404);
    });
  });

  describe('library API', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const lib = await startTestLibrary();
      ids = lib;
    });

    async function startTestLibrary() {
      const a = await uploaded(await png(320, 200), 'lib-alpha.png', { title: 'Sunset over zebra', alt: 'orange sky' });
      const b = await uploaded(pdf(), 'lib-beta.pdf', { title: 'Zebra handbook' });
      const c = await uploaded(await jpeg(400, 300), 'lib-gamma.jpg', { alt: 'a quiet ZEBRA crossing' });
      return { a: a._id, b: b._id, c: c._id };
    }

    const list = async (qs: string) => {
      const res = await t.request({ method: 'GET', url: `/api/media?${qs}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Media[]; meta: { total: number; limit: number; offset: number } };
    };

    it('filters by MIME prefix or type and searches filename, title and alt', async () => {
      const images = await list('type=image/&limit=100');
      expect(images.data.every((x) => x.mimeType.startsWith('image/'))).toBe(true);
      expect(images.data.map((x) => x._id)).toEqual(expect.arrayContaining([ids.a, ids.c]));
      const pdfs = await list('type=application/pdf&limit=100');
      expect(pdfs.data.every((x) => x.mimeType === 'application/pdf')).toBe(true);
      expect(pdfs.data.map((x) => x._id)).toContain(ids.b);
      const zebra = await list('search=zebra');
      expect(zebra.data.map((x) => x._id).sort()).toEqual([ids.a, ids.b, ids.c].sort());
      expect(zebra.meta.total).toBe(3);
      const byName = await list('search=lib-gamma');
      expect(byName.data.map((x) => x._id)).toEqual([ids.c]);
      const zebraImages = await list('search=zebra&type=image/');
      expect(zebraImages.data.map((x) => x._id).sort()).toEqual([ids.a, ids.c].sort());
      // LIKE wildcards are plain characters.
      expect((await list('search=%25')).meta.total).toBe(0);
    });

    it('orders, pages and finds by content hash', async () => {
      const newest = await list('search=zebra');
      expect(newest.data.map((x) => x._id)).toEqual([ids.c, ids.b, ids.a]);
      const oldest = await list('search=zebra&order=asc');
      expect(oldest.data.map((x) => x._id)).toEqual([ids.a, ids.b, ids.c]);
      const bySize = await list('search=zebra&orderBy=size&order=asc');
      const sizes = bySize.data.map((x) => x.size);
      expect(sizes).toEqual([...sizes].sort((x, y) => x - y));
      const page = await list('search=zebra&limit=1&offset=1');
      expect(page.data.map((x) => x._id)).toEqual([ids.b]);
      expect(page.meta).toEqual({ total: 3, limit: 1, offset: 1 });
      const one = (await t.request({ method: 'GET', url: `/api/media/${ids.b}` })).json().data as Media;
      const byHash = await list(`sha256=${one.sha256}`);
      expect(byHash.data.map((x) => x._id)).toContain(ids.b);
      expect(byHash.data.every((x) => x.sha256 === one.sha256)).toBe(true);
    });

    it('refuses bad list queries with 400', async () => {
      for (const qs of ['orderBy=password', 'order=up', 'limit=-1', 'limit=abc', 'sha256=xyz', 'type=<script>', 'unknown=1']) {
        const res = await t.request({ method: 'GET', url: `/api/media?${qs}` });
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().error.code).toBe('INVALID_INPUT');
      }
    });

    it('edits alt and title (null clears), refuses unknown fields, 404 for unknown ids', async () => {
      const res = await t.request({ method: 'PATCH', url: `/api/media/${ids.a}`, payload: { alt: 'new alt', title: null }, token: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ _id: ids.a, alt: 'new alt', title: null });
      expect((await t.request({ method: 'GET', url: `/api/media/${ids.a}` })).json().data).toMatchObject({ alt: 'new alt', title: null });
      const bad = await t.request({ method: 'PATCH', url: `/api/media/${ids.a}`, payload: { filename: 'x.png' }, token: admin });
      expect(bad.statusCode).toBe(422);
      const wrongType = await t.request({ method: 'PATCH', url: `/api/media/${ids.a}`, payload: { alt: 5 }, token: admin });
      expect(wrongType.statusCode).toBe(422);
      expect((await t.request({ method: 'PATCH', url: '/api/media/nope', payload: { alt: 'x' }, token: admin })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: '/api/media/nope' })).statusCode).toBe(404);
    });
  });

  describe('documents and delete', () => {
    it('checks image and file fields, expands them, and guards delete while used', async () => {
      const image = await uploaded(await png(640, 480), 'cover.png');
      const doc = await uploaded(pdf(), 'terms.pdf');
      const create = (body: Record<string, unknown>) =>
        t.request({ method: 'POST', url: '/api/documents/page', payload: { title: 'Page', ...body }, token: admin });

      const missing = await create({ cover: '00000000-0000-7000-8000-000000000000' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().error.details[0].field).toBe('cover');
      const wrongKind = await create({ cover: doc._id });
      expect(wrongKind.statusCode).toBe(422);
      expect(wrongKind.json().error.details[0].message).toMatch(/application\/pdf/);
      const wrongFile = await create({ attachment: image._id });
      expect(wrongFile.statusCode).toBe(422);

      const page = await create({ cover: image._id, attachment: doc._id, gallery: [image._id] });
      expect(page.statusCode, page.body).toBe(201);
      const id = page.json().data._id;
      const plain = await t.request({ method: 'GET', url: `/api/documents/page/${id}`, token: admin });
      expect(plain.json().data.cover).toBe(image._id);
      const expanded = await t.request({ method: 'GET', url: `/api/documents/page/${id}?expand=cover,attachment,gallery`, token: admin });
      expect(expanded.statusCode, expanded.body).toBe(200);
      expect(expanded.json().data.cover).toMatchObject({ _id: image._id, url: image.url, variants: image.variants, width: 640 });
      expect(expanded.json().data.attachment).toMatchObject({ _id: doc._id, mimeType: 'application/pdf' });
      expect(expanded.json().data.gallery[0]).toMatchObject({ _id: image._id });
      const deep = await t.request({ method: 'GET', url: `/api/documents/page/${id}?expand=cover.title`, token: admin });
      expect(deep.statusCode).toBe(400);

      const refused = await t.request({ method: 'DELETE', url: `/api/media/${image._id}`, token: admin });
      expect(refused.statusCode).toBe(409);
      expect(detailFields(refused)).toEqual(['cover', 'gallery.0']);
      expect((await fetchFile(image.url)).statusCode).toBe(200);

      // Once the page no longer uses the PDF, it can go without force.
      const patched = await t.request({ method: 'PATCH', url: `/api/documents/page/${id}`, payload: { attachment: null }, token: admin });
      expect(patched.statusCode).toBe(200);
      expect((await t.request({ method: 'DELETE', url: `/api/media/${doc._id}`, token: admin })).statusCode).toBe(200);

      const keysBefore = await stored();
      const forced = await t.request({ method: 'DELETE', url: `/api/media/${image._id}?force=true`, token: admin });
      expect(forced.statusCode).toBe(200);
      expect(forced.json()).toEqual({ success: true });
      const keysAfter = await stored();
      const own = (k: string) => k.startsWith(image._id);
      expect(keysBefore.filter(own)).toHaveLength(3);
      expect(keysAfter.filter(own)).toEqual([]);
      for (const url of [image.url, ...Object.values(image.variants)]) expect((await fetchFile(url)).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/api/media/${image._id}` })).statusCode).toBe(404);
      // The page keeps the id it held; expanding a deleted media item leaves the id.
      const after = await t.request({ method: 'GET', url: `/api/documents/page/${id}?expand=cover`, token: admin });
      expect(after.json().data.cover).toBe(image._id);
      expect((await t.request({ method: 'DELETE', url: `/api/media/${image._id}`, token: admin })).statusCode).toBe(404);
    });

    it('an edit of a media item shows at once in cached public reads that expand it', async () => {
      const image = await uploaded(await png(120, 90), 'cached.png', { alt: 'first' });
      const page = await t.request({
        method: 'POST',
        url: '/api/documents/page',
        payload: { title: 'Cached', cover: image._id, _status: 'published' },
        token: admin,
      });
      const url = `/api/documents/page/${page.json().data._id}?expand=cover`;
      expect((await t.request({ method: 'GET', url })).json().data.cover.alt).toBe('first');
      expect((await t.request({ method: 'GET', url })).json().data.cover.alt).toBe('first');
      await t.request({ method: 'PATCH', url: `/api/media/${image._id}`, payload: { alt: 'second' }, token: admin });
      expect((await t.request({ method: 'GET', url })).json().data.cover.alt).toBe('second');
    });

    it('deleting a document releases its media', async () => {
      const image = await uploaded(await png(100, 100), 'release.png');
      const page = await t.request({ method: 'POST', url: '/api/documents/page', payload: { title: 'P', cover: image._id }, token: admin });
      expect((await t.request({ method: 'DELETE', url: `/api/media/${image._id}`, token: admin })).statusCode).toBe(409);
      expect((await t.request({ method: 'DELETE', url: `/api/documents/page/${page.json().data._id}`, token: admin })).statusCode).toBe(
        200,
      );
      expect((await t.request({ method: 'DELETE', url: `/api/media/${image._id}`, token: admin })).statusCode).toBe(200);
    });
  });
});
