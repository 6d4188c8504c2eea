import { afterAll, describe, expect, it } from 'vitest';
import { isActiveContent, isRasterImage, safeExtension, sniffMime } from '../../packages/server/src/media/sniff-mime.js';
import * as fixtures from '../helpers/media-fixtures.js';

const { write, remove } = fixtures.fixtureDir();
afterAll(remove);

describe('sniffMime', () => {
  const cases: [string, () => Buffer | Promise<Buffer>, string, string][] = [
    ['PNG', () => fixtures.png(20, 10), 'image/png', 'png'],
    ['JPEG', () => fixtures.jpeg(20, 10), 'image/jpeg', 'jpg'],
    ['WebP', () => fixtures.webp(20, 10), 'image/webp', 'webp'],
    ['GIF', () => fixtures.gif(20, 10), 'image/gif', 'gif'],
    ['PDF', fixtures.pdf, 'application/pdf', 'pdf'],
    ['SVG with a script', fixtures.svg, 'image/svg+xml', 'svg'],
    ['HTML named .png', fixtures.htmlAsPng, 'text/html', 'html'],
    ['plain UTF-8 text', fixtures.text, 'text/plain', 'txt'],
    ['random binary', () => fixtures.randomBinary(), 'application/octet-stream', 'bin'],
  ];
  it.each(cases)('%s', async (_label, make, mime, ext) => {
    const path = write(`upload-${ext}-${mime.replace('/', '_')}.png`, await make());
    await expect(sniffMime(path)).resolves.toEqual({ mime, ext });
  });

  it.each([
    ['bare <svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'],
    ['BOM, whitespace and comment before <svg', '\ufeff  \n<!-- logo --><SVG onload="alert(1)"/>', 'image/svg+xml'],
    ['XML prolog before XHTML', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', 'text/html'],
    ['other XML', '<?xml version="1.0"?><feed><title>x</title></feed>', 'application/xml'],
    ['uppercase doctype', '  <!DOCTYPE HTML><p>hi', 'text/html'],
    ['bare <script', '<script>alert(1)</script>', 'text/html'],
    ['<iframe', '<iframe src="https://example.com">', 'text/html'],
    ['script tag after some text', 'Hello there!\n\n<script>alert(1)</script>', 'text/html'],
    ['UTF-8 text cut mid-character at 4 KiB', `${'a'.repeat(4095)}é and more`, 'text/plain'],
    ['truncated UTF-8 at the end of the file', Buffer.from([0x68, 0x69, 0xc3]), 'application/octet-stream'],
    ['UTF-16 text without BOM (has NULs)', Buffer.from('hello there', 'utf16le'), 'application/octet-stream'],
  ])('%s', async (label, content, mime) => {
    const path = write(`text-${label.replace(/\W+/g, '-')}.txt`, Buffer.isBuffer(content) ? content : Buffer.from(content));
    expect((await sniffMime(path)).mime).toBe(mime);
  });
});

describe('type policy', () => {
  it('isActiveContent: only raster images, audio, video, plain text and CSV are passive', () => {
    for (const passive of [
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/gif',
      'image/avif',
      'image/tiff',
      'video/mp4',
      'audio/mpeg',
      'text/plain',
      'text/csv; charset=utf-8',
      'IMAGE/PNG',
    ]) {
      expect(isActiveContent(passive), passive).toBe(false);
    }
    for (const active of [
      'image/svg+xml',
      'text/html',
      'application/xhtml+xml',
      'application/xml',
      'text/xml',
      'text/javascript',
      'application/javascript',
      'application/pdf',
      'application/octet-stream',
      'application/zip',
      'image/x-icon',
      'application/json',
    ]) {
      expect(isActiveContent(active), active).toBe(true);
    }
  });

  it('isRasterImage', () => {
    expect(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'].every(isRasterImage)).toBe(true);
    expect(['image/svg+xml', 'application/pdf', 'image/x-icon', 'text/html'].some(isRasterImage)).toBe(false);
  });

  it('safeExtension', () => {
    expect(safeExtension('image/jpeg')).toBe('jpg');
    expect(safeExtension('image/svg+xml')).toBe('svg');
    expect(safeExtension('audio/mpeg')).toBe('mp3');
    expect(safeExtension('text/csv; charset=utf-8')).toBe('csv');
    expect(safeExtension('application/x-whatever')).toBe('bin');
    expect(safeExtension('../../etc/passwd')).toBe('bin');
  });
});
