import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../../packages/client/src/index.js';
import { imageUrl } from '../../packages/client/src/index.js';
import type { FileStore } from '../../packages/server/src/media/storage/file-store.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { pdf } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { s3MediaConfig, startS3Server } from '../helpers/s3-server.js';

/**
 * Image transforms on request (docs/media.md, "Image transforms"): sizes, formats, `auto` by
 * Accept, crops around the focal point, the stored result read back on the next request, the
 * guard (presets always; free parameters signed, unless public) and the limits. On local storage
 * and on an S3 server (s3rver).
 */
const SECRET = 'transform-secret-0123456789abcdef-0123';
const PRESETS = { card: { w: 300, h: 200, fit: 'cover', format: 'webp' }, wide: { w: 600 } };

/** The documented recipe, written here independently of the server's code. */
const sign = (key: string, query: string) => createHmac('sha256', SECRET).update(`${key}?${query}`).digest('base64url');

/** 1200×800: red, green and blue vertical thirds, so a crop shows where it was taken. */
function stripes(): Promise<Buffer> {
  const [w, h] = [1200, 800];
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) raw.set(x < 400 ? [255, 0, 0] : x < 800 ? [0, 255, 0] : [0, 0, 255], (y * w + x) * 3);
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

async function pixel(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [data[i], data[i + 1], data[i + 2]];
}

const dominant = ([r, g, b]: [number, number, number]) =>
  r > 200 && g < 60 ? 'red' : g > 200 && r < 60 ? 'green' : b > 200 && r < 60 ? 'blue' : 'other';

describe.each(['local', 's3'] as const)('image transforms on %s storage', (storage) => {
  let t: TestApp;
  let open: TestApp;
  let admin: string;
  let image: Media;
  let dir: string;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  /** Transform files written to and read from the store, counted past the app. */
  const counted = { put: 0, get: 0 };

  const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });
  const signed = (key: string, query: string) => `/api/media/files/${key}?${query}&sig=${sign(key, query)}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-transforms-'));
    let media: Record<string, unknown> = { dir };
    if (storage === 's3') {
      s3 = await startS3Server();
      media = s3MediaConfig(s3);
    }
    const transforms = { secret: SECRET, presets: PRESETS, maxWidth: 2000, maxHeight: 2000, maxPixels: 1_000_000 };
    t = await startTestApp({ media: { ...media, transforms } });
    open = await startTestApp({ media: { dir: join(dir, 'open'), transforms: { public: true } } });
    admin = await t.login(ADMIN.username, ADMIN.password);
    const { payload, headers } = await multipartUpload(await stripes(), 'stripes.png');
    const res = await t.request({ method: 'POST', url: '/api/media', payload, headers, token: admin });
    expect(res.statusCode, res.body).toBe(201);
    image = res.json().data as Media;
    const files = t.app.services.files;
    const isTransform = (key: string) => key.includes('.t');
    t.app.services.files = {
      ...files,
      kind: files.kind,
      put: (key, body, type) => ((counted.put += Number(isTransform(key))), files.put(key, body, type)),
      get: (key, range) => ((counted.get += Number(isTransform(key))), files.get(key, range)),
      stat: (key) => files.stat(key),
      delete: (keys) => files.delete(keys),
      list: () => files.list(),
      close: () => files.close(),
    } satisfies FileStore;
  });

  afterAll(async () => {
    await t?.close();
    await open?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('no transform parameter: the stored file, byte for byte, as before (other parameters are ignored)', async () => {
    const plain = await get(`/api/media/files/${image.filename}`);
    const busted = await get(`/api/media/files/${image.filename}?v=3`);
    expect(plain.statusCode).toBe(200);
    expect(busted.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect(plain.headers['content-type']).toBe('image/png');
    expect(plain.headers.vary).toBeUndefined();
  });

  it('sizes: a width keeps the aspect ratio; width and height crop (cover), fit (inside) or pad (contain); never enlarged', async () => {
    const size = async (query: string) => {
      const res = await get(signed(image.filename, query));
      expect(res.statusCode, res.body).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      return `${meta.width}×${meta.height}`;
    };
    expect(await size('w=300')).toBe('300×200');
    expect(await size('h=100')).toBe('150×100');
    expect(await size('h=300&w=300')).toBe('300×300');
    expect(await size('fit=inside&h=300&w=300')).toBe('300×200');
    expect(await size('fit=contain&h=300&w=300')).toBe('300×300');
    expect(await size('w=1800')).toBe('1200×800');
    expect(await size('h=1000&w=1000')).toBe('800×800');
  });

  it('formats: as asked, the source’s own when none is named, and the Content-Type and key to match', async () => {
    for (const [format, type] of [
      ['webp', 'image/webp'],
      ['avif', 'image/avif'],
      ['jpeg', 'image/jpeg'],
      ['png', 'image/png'],
    ] as const) {
      const res = await get(signed(image.filename, `format=${format}&w=120`));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect((await sharp(res.rawPayload).metadata()).format).toBe(format === 'avif' ? 'heif' : format);
    }
    const same = await get(signed(image.filename, 'w=120'));
    expect(same.headers['content-type']).toBe('image/png');
  });

  it('format=auto chooses by Accept (AVIF, then WebP, else the source’s family) and says Vary: Accept', async () => {
    const url = signed(image.filename, 'format=auto&w=100');
    const avif = await get(url, { accept: 'image/avif,image/webp,*/*' });
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.headers.vary).toBe('Accept');
    expect((await get(url, { accept: 'image/webp,*/*' })).headers['content-type']).toBe('image/webp');
    expect((await get(url, { accept: 'image/avif;q=0,image/webp' })).headers['content-type']).toBe('image/webp');
    expect((await get(url, { accept: '*/*' })).headers['content-type']).toBe('image/png');
    expect((await get(url)).headers['content-type']).toBe('image/png');
  });

  it('fit=cover crops around the focal point; moving it renders again and removes the old crops', async () => {
    const crop = async () => {
      const res = await get(signed(image.filename, 'h=200&w=200'));
      expect(res.statusCode, res.body).toBe(200);
      return { left: dominant(await pixel(res.rawPayload, 5, 100)), right: dominant(await pixel(res.rawPayload, 194, 100)), res };
    };
    const centre = await crop();
    expect([centre.left, centre.right]).toEqual(['red', 'blue']);
    expect(centre.res.headers['cache-control']).toBe('public, max-age=86400');

    const focus = async (focalPoint: unknown) => {
      const res = await t.request({ method: 'PATCH', url: `/api/media/${image._id}`, token: admin, payload: { focalPoint } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Media;
    };
    const before = (await t.app.services.files.list()).filter((k) => k.includes('.t')).length;
    expect((await focus({ x: 0.95, y: 0.5 })).focalPoint).toEqual({ x: 0.95, y: 0.5 });
    // The crops made around the centre are gone; transforms that crop nothing stay.
    expect((await t.app.services.files.list()).filter((k) => k.includes('.t')).length).toBeLessThan(before);
    expect([(await crop()).left, (await crop()).right]).toEqual(['green', 'blue']);
    await focus({ x: 0, y: 0.5 });
    expect([(await crop()).left, (await crop()).right]).toEqual(['red', 'green']);
    const cleared = await focus(null);
    expect(cleared.focalPoint).toBeUndefined();
    expect((await crop()).right).toBe('blue');
    // Only the crop depends on the record: the rest is cached for good.
    expect((await get(signed(image.filename, 'w=300'))).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a focal point outside 0–1, or not {x, y}, is refused and changes nothing', async () => {
    for (const focalPoint of [{ x: 1.5, y: 0.5 }, { x: 0.5 }, 'centre', { x: 0.2, y: 0.2, z: 1 }]) {
      const res = await t.request({ method: 'PATCH', url: `/api/media/${image._id}`, token: admin, payload: { focalPoint } });
      expect([400, 422]).toContain(res.statusCode);
    }
    const now = (await t.request({ method: 'GET', url: `/api/media/${image._id}` })).json().data as Media;
    expect(now.focalPoint).toBeUndefined();
  });

  it('renders once: the second request is a read of the stored file (counted at the store), with the same bytes', async () => {
    // Noise does not compress: its transform is over the size kept in memory, so each serving reads the store.
    const noise = await sharp(randomBytes(600 * 400 * 3), { raw: { width: 600, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    const { payload, headers } = await multipartUpload(noise, 'noise.png');
    const up = await t.request({ method: 'POST', url: '/api/media', payload, headers, token: admin });
    expect(up.statusCode, up.body).toBe(201);
    const url = signed(up.json().data.filename as string, 'format=png&w=500');
    const { put, get: reads } = counted;
    const first = await get(url);
    expect(first.statusCode, first.body).toBe(200);
    expect(counted.put - put).toBe(1);
    const second = await get(url);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(counted.put - put).toBe(1);
    // A file over the in-memory size for small files is read from the store each time.
    expect(first.rawPayload.length).toBeGreaterThan(32 * 1024);
    expect(counted.get - reads).toBeGreaterThanOrEqual(2);
    expect(second.headers.etag).toBe(first.headers.etag);
    const notModified = await get(url, { 'if-none-match': first.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
    expect(counted.put - put).toBe(1);
  });

  it('presets are always allowed; free parameters need a valid signature: unsigned, wrong or altered is 403', async () => {
    const card = await get(`/api/media/files/${image.filename}?preset=card`);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.headers['content-type']).toBe('image/webp');
    expect(await sharp(card.rawPayload).metadata()).toMatchObject({ width: 300, height: 200 });
    expect((await sharp((await get(`/api/media/files/${image.filename}?preset=wide`)).rawPayload).metadata()).width).toBe(600);

    expectSpecError(await get(`/api/media/files/${image.filename}?w=300`), 403, 'FORBIDDEN');
    expectSpecError(await get(`/api/media/files/${image.filename}?w=300&sig=${sign(image.filename, 'w=301')}`), 403, 'FORBIDDEN');
    expectSpecError(await get(`/api/media/files/${image.filename}?w=300&sig=forged`), 403, 'FORBIDDEN');
    expectSpecError(await get(`/api/media/files/${image.filename}?preset=card&w=900`), 403, 'FORBIDDEN');
    // The client's imageUrl writes the query exactly as it is signed.
    const url = imageUrl(
      { url: `/api/media/files/${image.filename}` },
      { w: 240, format: 'webp', sig: sign(image.filename, 'format=webp&w=240') },
    );
    expect((await get(url)).statusCode).toBe(200);
  });

  it('media.transforms.public: free parameters without a signature', async () => {
    const token = await open.login(ADMIN.username, ADMIN.password);
    const { payload, headers } = await multipartUpload(await stripes(), 'open.png');
    const up = await open.request({ method: 'POST', url: '/api/media', payload, headers, token });
    const res = await open.request({ method: 'GET', url: `/api/media/files/${up.json().data.filename}?w=64` });
    expect(res.statusCode, res.body).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(64);
  });

  it('malformed values, an unknown preset and sizes over the limits are 400, signed or not', async () => {
    for (const query of ['w=0', 'w=abc', 'w=2001', 'h=2001', 'q=101', 'fit=stretch', 'format=bmp', 'h=1000&w=1001']) {
      const res = await get(signed(image.filename, query));
      expectSpecError(res, 400, 'INVALID_INPUT');
    }
    expectSpecError(await get(`/api/media/files/${image.filename}?preset=huge`), 400, 'INVALID_INPUT');
    expectSpecError(await get(`/api/media/files/${image.filename}?w=10&w=20`), 400, 'INVALID_INPUT');
  });

  it('only originals of raster images transform: a PDF is 400, a missing or variant key 404', async () => {
    const { payload, headers } = await multipartUpload(pdf(), 'doc.pdf');
    const doc = (await t.request({ method: 'POST', url: '/api/media', payload, headers, token: admin })).json().data as Media;
    expectSpecError(await get(signed(doc.filename, 'w=100')), 400, 'INVALID_INPUT');
    expectSpecError(await get(signed('0190a1b2-0000-7000-8000-000000000000.png', 'w=100')), 404, 'NOT_FOUND');
    const thumb = image.variants.thumb.split('/').pop() as string;
    expectSpecError(await get(signed(thumb, 'w=100')), 404, 'NOT_FOUND');
  });

  it('deleting the media item removes its transforms from the store', async () => {
    const { payload, headers } = await multipartUpload(await stripes(), 'gone.png');
    const gone = (await t.request({ method: 'POST', url: '/api/media', payload, headers, token: admin })).json().data as Media;
    expect((await get(signed(gone.filename, 'w=90'))).statusCode).toBe(200);
    expect((await get(`/api/media/files/${gone.filename}?preset=card`)).statusCode).toBe(200);
    const stem = gone.filename.slice(0, gone.filename.lastIndexOf('.'));
    expect((await t.app.services.files.list()).filter((k) => k.startsWith(`${stem}.t`))).toHaveLength(2);
    const del = await t.request({ method: 'DELETE', url: `/api/media/${gone._id}`, token: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect((await t.app.services.files.list()).filter((k) => k.startsWith(stem))).toEqual([]);
  });
});
