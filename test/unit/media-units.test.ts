import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { parseByteRange } from '../../packages/server/src/http/routes/media/byte-range.js';
import { sanitizeFilename } from '../../packages/server/src/domain/media/sanitize-filename.js';
import { mimeAccepted } from '../../packages/server/src/domain/shared/mime-accepted.js';
import { isSafeKey } from '../../packages/server/src/media/assert-safe-key.js';
import { mimeForExtension } from '../../packages/server/src/domain/media/mime-for-extension.js';
import { toApiMedia } from '../../packages/server/src/domain/media/media-view.js';
import { retryOnce } from '../../packages/server/src/media/retry-once.js';
import { sweepSpool } from '../../packages/server/src/media/spool-upload.js';
import { configProblems } from '../helpers/config-problems.js';

describe('parseByteRange (RFC 9110 §14.1.2)', () => {
  it('reads first-last, open-ended and suffix ranges, clamped to the file', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=50-5000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseByteRange('bytes=1-1', 100)).toEqual({ start: 1, end: 1 });
  });

  it('is unsatisfiable past the end or for an empty suffix', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, several ranges, reversed or malformed', () => {
    for (const h of [undefined, 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-2', 'bytes=-', 'bytes=a-b', 'bytes=0x10-']) {
      expect(parseByteRange(h, 100), String(h)).toBeUndefined();
    }
  });
});

describe('sanitizeFilename', () => {
  it('keeps the last path segment without control, bidi or dot-dot runs', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\me\\photo.JPG')).toBe('photo.JPG');
    expect(sanitizeFilename('a\u0000b\u0007c\r\n.png')).toBe('abc.png');
    expect(sanitizeFilename('invoice\u202egnp.exe')).toBe('invoicegnp.exe');
    expect(sanitizeFilename('my..file...pdf')).toBe('my.file.pdf');
    expect(sanitizeFilename('Crème brûlée 🍮.png')).toBe('Crème brûlée 🍮.png');
  });

  it('never returns an empty or dot name, and stays at 255 characters', () => {
    for (const raw of ['', '..', '/', '.', '\u0000', '   ']) expect(sanitizeFilename(raw)).toBe('upload');
    expect([...sanitizeFilename('x'.repeat(1000))].length).toBe(255);
  });
});

describe('mimeAccepted', () => {
  it('matches prefixes, wildcards and exact types, case-insensitively; empty accepts all', () => {
    expect(mimeAccepted('image/png', ['image/'])).toBe(true);
    expect(mimeAccepted('image/png', ['image/*'])).toBe(true);
    expect(mimeAccepted('IMAGE/PNG', ['image/png'])).toBe(true);
    expect(mimeAccepted('application/pdf', ['image/'])).toBe(false);
    expect(mimeAccepted('image/pngx', ['image/png'])).toBe(false);
    expect(mimeAccepted('text/html', [])).toBe(true);
  });
});

describe('storage keys', () => {
  it('allows only flat generated names', () => {
    expect(isSafeKey('0190a1b2-0000-7000-8000-000000000000-thumb.webp')).toBe(true);
    for (const k of ['', '.', '..', '../x', 'a/b', 'a\\b', '/etc/passwd', 'x\u0000y', '.hidden', 'a..b', 'é.png', 'x'.repeat(201)]) {
      expect(isSafeKey(k), JSON.stringify(k)).toBe(false);
    }
  });

  it('serves unknown extensions as opaque bytes', () => {
    expect(mimeForExtension('png')).toBe('image/png');
    expect(mimeForExtension('exe')).toBe('application/octet-stream');
  });
});

describe('media configuration', () => {
  const problems = configProblems;

  it('has the documented defaults', () => {
    const { media } = resolveConfig({}, {});
    expect(media).toMatchObject({
      storage: 'local',
      dir: './data/media',
      maxFileSize: 25 * 1024 * 1024,
      maxPixels: 70_000_000,
      publicRead: true,
    });
    expect(media.variants.map((v) => v.name)).toEqual(['thumb', 'medium']);
    expect(media.allowedTypes).toContain('image/');
    expect(media.allowedTypes).not.toContain('text/html');
  });

  it('reads sizes with units, MEDIA_DIR and S3_* from the environment', () => {
    expect(resolveConfig({ media: { maxFileSize: '10MB' } }, {}).media.maxFileSize).toBe(10 * 1024 * 1024);
    expect(resolveConfig({ media: { maxFileSize: '512kb' } }, {}).media.maxFileSize).toBe(512 * 1024);
    expect(resolveConfig({ media: { maxFileSize: 1234 } }, {}).media.maxFileSize).toBe(1234);
    expect(resolveConfig({}, { MEDIA_DIR: '/srv/media' }).media.dir).toBe('/srv/media');
    const s3 = resolveConfig({}, { S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' }).media;
    expect(s3.storage).toBe('s3');
    expect(s3.s3).toMatchObject({ bucket: 'b', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  });

  it('reports one line per bad setting', () => {
    expect(problems({ media: { storage: 'ftp' } })).toContain('media.storage: expected local or s3');
    expect(problems({ media: { storage: 's3' } })).toContain('media.s3.bucket: required when media.storage is s3 (or set S3_BUCKET)');
    expect(problems({ media: { maxFileSize: 'huge' } })[0]).toMatch(/^media\.maxFileSize:/);
    expect(problems({ media: { allowedTypes: ['png'] } })[0]).toMatch(/^media\.allowedTypes:/);
    expect(problems({ media: { variants: [{ name: 'Big Thumb', width: 10 }] } })[0]).toMatch(/^media\.variants\[0\]\.name:/);
    expect(problems({ media: { variants: [{ name: 'a' }] } })).toContain('media.variants[0]: needs a width, a height or both');
    expect(problems({ media: { variants: [{ name: 'a', width: 5, fit: 'stretch' }] } })[0]).toMatch(/fit/);
    expect(problems({ media: { publicBaseUrl: 'cdn' } })).toContain('media.publicBaseUrl: expected an http(s) URL');
    expect(problems({ media: { colour: 'red' } })).toContain('media.colour: unknown setting');
  });
});

describe('media URLs', () => {
  const record = {
    id: 'm1',
    filename: 'm1.png',
    originalFilename: 'a.png',
    mimeType: 'image/png',
    size: 10,
    sha256: 'x'.repeat(64),
    width: 1,
    height: 1,
    alt: null,
    title: null,
    variants: { thumb: { key: 'm1-thumb.webp', mimeType: 'image/webp', width: 1, height: 1, size: 5 } },
    placeholder: null,
    dominantColor: null,
    focalPoint: null,
    createdAt: 't',
    updatedAt: 't',
    createdBy: null,
  };

  it('are origin-relative under the API base path without server.publicUrl, or absolute under media.publicBaseUrl', () => {
    const local = toApiMedia(resolveConfig({}, {}), record);
    expect(local.url).toBe('/api/media/files/m1.png');
    expect(local.variants).toEqual({ thumb: '/api/media/files/m1-thumb.webp' });
    const cdn = toApiMedia(resolveConfig({ media: { publicBaseUrl: 'https://cdn.example.com/media/' } }, {}), record);
    expect(cdn.url).toBe('https://cdn.example.com/media/m1.png');
    expect(cdn.variants).toEqual({ thumb: 'https://cdn.example.com/media/m1-thumb.webp' });
    const based = toApiMedia(resolveConfig({ server: { basePath: '/cms' } }, {}), record);
    expect(based.url).toBe('/cms/media/files/m1.png');
  });

  it('are absolute on this server when server.publicUrl says where it is; media.publicBaseUrl still wins', () => {
    const public_ = toApiMedia(resolveConfig({ server: { publicUrl: 'https://cms.example.com/' } }, {}), record);
    expect(public_.url).toBe('https://cms.example.com/api/media/files/m1.png');
    expect(public_.variants).toEqual({ thumb: 'https://cms.example.com/api/media/files/m1-thumb.webp' });
    const behindPath = toApiMedia(resolveConfig({ server: { publicUrl: 'https://example.com/vellum', basePath: '/cms' } }, {}), record);
    expect(behindPath.url).toBe('https://example.com/vellum/cms/media/files/m1.png');
    const both = toApiMedia(
      resolveConfig({ server: { publicUrl: 'https://cms.example.com' }, media: { publicBaseUrl: 'https://cdn.example.com' } }, {}),
      record,
    );
    expect(both.url).toBe('https://cdn.example.com/m1.png');
  });
});

describe('retryOnce', () => {
  it('returns the second attempt after one failure, and reports the second failure after two', async () => {
    let calls = 0;
    expect(await retryOnce(async () => (++calls === 1 ? Promise.reject(new Error('transient')) : 'ok'))).toBe('ok');
    expect(calls).toBe(2);
    calls = 0;
    await expect(retryOnce(async () => Promise.reject(new Error(`failure ${++calls}`)))).rejects.toThrow('failure 2');
    expect(calls).toBe(2);
    calls = 0;
    expect(await retryOnce(async () => ++calls)).toBe(1);
  });
});

describe('sweepSpool', () => {
  it('removes only spool files older than the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-spool-test-'));
    try {
      writeFileSync(join(dir, 'old'), 'x');
      writeFileSync(join(dir, 'fresh'), 'y');
      const hourAgo = new Date(Date.now() - 2 * 3_600_000);
      utimesSync(join(dir, 'old'), hourAgo, hourAgo);
      expect(await sweepSpool(3_600_000, dir)).toBe(1);
      expect(readdirSync(dir)).toEqual(['fresh']);
      expect(await sweepSpool(3_600_000, join(dir, 'missing'))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
