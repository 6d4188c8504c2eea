import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Upload fixtures built in memory. Images are solid colours unless said otherwise; `jpeg` is red
 * on its top half and blue on its bottom half as stored, so a test can tell how it was oriented.
 */

const RED = { r: 255, g: 0, b: 0 };
const BLUE = { r: 0, g: 0, b: 255 };

function solid(width: number, height: number, background: { r: number; g: number; b: number; alpha?: number }) {
  return sharp({ create: { width, height, channels: background.alpha === undefined ? 3 : 4, background } });
}

export function png(width: number, height: number, background = { r: 40, g: 160, b: 90 }): Promise<Buffer> {
  return solid(width, height, background).png().toBuffer();
}

export function webp(width: number, height: number): Promise<Buffer> {
  return solid(width, height, { r: 200, g: 120, b: 30 }).webp().toBuffer();
}

export function gif(width: number, height: number): Promise<Buffer> {
  return solid(width, height, { r: 20, g: 60, b: 220 }).gif().toBuffer();
}

/** An animated GIF whose frames are red, then green, then blue. */
export function animatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const colours = [RED, { r: 0, g: 255, b: 0 }, BLUE];
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let i = 0; i < width * height * frames; i++) {
    const { r, g, b } = colours[Math.floor(i / (width * height)) % colours.length];
    raw.set([r, g, b], i * 3);
  }
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: Array(frames).fill(100) })
    .toBuffer();
}

/** GPS tags as EXIF strings: rationals are `numerator/denominator`, one per degree/minute/second. */
const GPS_TAGS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '51/1 30/1 2646/100',
  GPSLongitudeRef: 'W',
  GPSLongitude: '0/1 7/1 3924/100',
};

export async function jpeg(width: number, height: number, opts: { orientation?: number; gps?: boolean } = {}): Promise<Buffer> {
  const top = Math.floor(height / 2);
  let image = solid(width, height, BLUE)
    .composite([{ input: { create: { width, height: top, channels: 3, background: RED } }, top: 0, left: 0 }])
    .jpeg({ quality: 90 });
  if (opts.gps) image = image.withExif({ IFD3: GPS_TAGS });
  // withExif alone cannot set the orientation: libvips rewrites that tag from the image's own field.
  if (opts.orientation !== undefined) image = image.withMetadata({ orientation: opts.orientation });
  return image.toBuffer();
}

/**
 * A photo-like, high-entropy JPEG of about `megapixels` at 4:3 (12 → 4000×3000): smooth colour
 * gradients plus heavy noise, so it neither compresses nor decodes like a flat test card.
 */
export function bigJpeg(megapixels: number): Promise<Buffer> {
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const noise = randomBytes(width * height);
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const n = (noise[i] >> 2) - 32;
      raw[i * 3] = clamp((x * 255) / width + n);
      raw[i * 3 + 1] = clamp((y * 255) / height + n);
      raw[i * 3 + 2] = clamp(((x + y) * 127) / (width + height) + 64 - n);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function clamp(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

/** Smallest useful PDF: catalog, one empty page, xref table with correct offsets. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export function svg(): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n' +
      '  <script>alert(document.cookie)</script>\n' +
      '  <rect width="10" height="10" fill="red"/>\n' +
      '</svg>\n',
  );
}

/** HTML text, meant to be uploaded under a name like `x.png`. */
export function htmlAsPng(): Buffer {
  return Buffer.from('<!DOCTYPE html>\n<html><body><script>fetch("/api/me").then(r => r.text()).then(alert)</script></body></html>\n');
}

export function text(): Buffer {
  return Buffer.from('Grüße aus Köln — plain UTF-8 notes, nothing to render.\n'.repeat(3));
}

/** Random bytes behind a fixed prefix that matches no file signature, and a NUL so it is not text either. */
export function randomBinary(length = 4096): Buffer {
  const bytes = randomBytes(length);
  bytes.write('VELLUM-RANDOM\0', 0, 'latin1');
  return bytes;
}

const BOMB_SIDE = 20_000;
let bomb: Buffer | undefined;

/**
 * A valid 20000×20000 1-bit greyscale PNG (400 megapixels) of about 49 KB: 20000 scanlines of
 * (filter byte + 2500 zero bytes) ≈ 50 MB raw, deflated at level 9 (deflate tops out near
 * 1000:1). Built once per process.
 */
export function bombPng(): Buffer {
  if (bomb) return bomb;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(BOMB_SIDE, 0);
  ihdr.writeUInt32BE(BOMB_SIDE, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  const scanlines = Buffer.alloc(BOMB_SIDE * (1 + BOMB_SIDE / 8));
  bomb = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(scanlines, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return bomb;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const chunk = Buffer.alloc(4 + typeAndData.length + 4);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 4 + typeAndData.length);
  return chunk;
}

// zlib.crc32 only arrived in Node 22.2.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Whether an EXIF block (as in `metadata().exif`) has a GPS IFD pointer (tag 0x8825) in IFD0. */
export function exifHasGps(exif: Buffer): boolean {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const entries = u16(ifd0);
  for (let i = 0; i < entries; i++) {
    if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  }
  return false;
}

/** A fresh temporary directory: `write` stores a fixture and returns its path, `remove` deletes them all. */
export function fixtureDir(prefix = 'vellum-media-'): { write: (name: string, data: Buffer) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    write: (name, data) => {
      const path = join(dir, name);
      writeFileSync(path, data);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
