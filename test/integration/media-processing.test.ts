import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_VARIANTS,
  probeImage,
  processImage,
  type ProcessedImage,
  type RenderedVariant,
} from '../../packages/server/src/media/image-variants.js';
import { MediaError } from '../../packages/server/src/media/media-error.js';
import * as fixtures from '../helpers/media-fixtures.js';

const MAX_PIXELS = 50_000_000;
const { write, remove } = fixtures.fixtureDir();
afterAll(remove);

function processWithDefaults(path: string): Promise<ProcessedImage> {
  return processImage(path, { variants: DEFAULT_VARIANTS, maxPixels: MAX_PIXELS });
}

function variant(result: ProcessedImage, name: string): RenderedVariant {
  const found = result.variants.find((v) => v.name === name);
  if (!found) throw new Error(`no variant ${name}`);
  return found;
}

async function pixel(data: Buffer, x: number, y: number): Promise<number[]> {
  const { data: raw, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...raw.subarray(at, at + 3)];
}

describe('fixtures', () => {
  it('the JPEG fixture really carries EXIF orientation and GPS', async () => {
    const metadata = await sharp(await fixtures.jpeg(400, 300, { orientation: 6, gps: true })).metadata();
    expect(metadata.orientation).toBe(6);
    expect(metadata.exif && fixtures.exifHasGps(metadata.exif)).toBe(true);
    const plain = await sharp(await fixtures.jpeg(400, 300, { orientation: 6 })).metadata();
    expect(plain.exif && fixtures.exifHasGps(plain.exif)).toBe(false);
  });

  it('the bomb PNG is small on disk and huge in pixels', async () => {
    const bomb = fixtures.bombPng();
    console.log(`bomb PNG: ${bomb.length} bytes`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const metadata = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([metadata.width, metadata.height]).toEqual([20_000, 20_000]);
  });
});

describe('processImage', () => {
  it.each([
    ['PNG', () => fixtures.png(1200, 900)],
    ['JPEG', () => fixtures.jpeg(1200, 900)],
    ['WebP', () => fixtures.webp(1200, 900)],
    ['GIF', () => fixtures.gif(1200, 900)],
  ])('%s: 200×200 thumb and 800 wide medium, as WebP', async (label, make) => {
    const result = await processWithDefaults(write(`variants.${label}`, await make()));
    expect([result.width, result.height]).toEqual([1200, 900]);
    for (const [name, width, height] of [
      ['thumb', 200, 200],
      ['medium', 800, 600],
    ] as const) {
      const rendered = variant(result, name);
      const metadata = await sharp(rendered.data).metadata();
      expect([rendered.width, rendered.height, metadata.width, metadata.height]).toEqual([width, height, width, height]);
      expect([metadata.format, rendered.contentType, rendered.ext]).toEqual(['webp', 'image/webp', 'webp']);
    }
  });

  it('a tall image keeps its aspect ratio within 800 wide', async () => {
    const result = await processWithDefaults(write('tall.png', await fixtures.png(1000, 3001)));
    const medium = variant(result, 'medium');
    expect([medium.width, medium.height]).toEqual([800, 2401]);
  });

  it('applies EXIF orientation 6: record and variants are upright, and no EXIF/GPS survives', async () => {
    // Stored 400×300, red on top; displayed rotated 90° clockwise, so 300×400 with red on the right.
    const result = await processWithDefaults(write('rotated.jpg', await fixtures.jpeg(400, 300, { orientation: 6, gps: true })));
    expect([result.width, result.height]).toEqual([300, 400]);
    const medium = variant(result, 'medium');
    expect([medium.width, medium.height]).toEqual([300, 400]);
    const [right, left] = [await pixel(medium.data, 280, 200), await pixel(medium.data, 20, 200)];
    expect(right[0]).toBeGreaterThan(200);
    expect(right[2]).toBeLessThan(60);
    expect(left[2]).toBeGreaterThan(200);
    expect(left[0]).toBeLessThan(60);
    for (const rendered of result.variants) {
      const metadata = await sharp(rendered.data).metadata();
      expect([metadata.exif, metadata.orientation, metadata.icc, metadata.xmp]).toEqual([undefined, undefined, undefined, undefined]);
    }
  });

  it('placeholder is a small WebP data URL and the dominant colour is right', async () => {
    const result = await processWithDefaults(write('red.png', await fixtures.png(640, 480, { r: 250, g: 10, b: 10 })));
    expect(result.placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/);
    expect(result.placeholder.length).toBeLessThan(1024);
    expect(result.dominantColor).toMatch(/^#[0-9a-f]{6}$/);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.dominantColor.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
    const placeholder = await sharp(Buffer.from(result.placeholder.split(',')[1], 'base64')).metadata();
    expect([placeholder.format, placeholder.width, placeholder.height]).toEqual(['webp', 16, 12]);
  });

  it('a photo placeholder stays well under 1 KB', async () => {
    const result = await processWithDefaults(write('photo.jpg', await fixtures.bigJpeg(1)));
    expect(result.placeholder.length).toBeLessThan(1024);
  });

  it('never enlarges: a 100×80 image keeps its size, and its thumb is the largest centred square', async () => {
    const result = await processWithDefaults(write('small.png', await fixtures.png(100, 80)));
    expect([variant(result, 'medium').width, variant(result, 'medium').height]).toEqual([100, 80]);
    expect([variant(result, 'thumb').width, variant(result, 'thumb').height]).toEqual([80, 80]);
  });

  it('uses only the first frame of an animated GIF', async () => {
    const result = await processWithDefaults(write('animated.gif', await fixtures.animatedGif(300, 200)));
    expect([result.width, result.height]).toEqual([300, 200]);
    const medium = variant(result, 'medium');
    expect([medium.width, medium.height]).toEqual([300, 200]);
    expect((await sharp(medium.data).metadata()).pages ?? 1).toBe(1);
    expect((await pixel(medium.data, 150, 100))[0]).toBeGreaterThan(200);
  });

  it('variants from the intermediate have the sizes sharp gives when resizing the original directly', async () => {
    const variants = [
      { name: 'w', width: 800, fit: 'inside', format: 'png' },
      { name: 'h', height: 333, fit: 'inside', format: 'png' },
      { name: 'box', width: 640, height: 480, fit: 'inside', format: 'png' },
      { name: 'out', width: 300, height: 300, fit: 'outside', format: 'png' },
      { name: 'cover', width: 321, height: 123, fit: 'cover', format: 'png' },
      { name: 'contain', width: 500, height: 500, fit: 'contain', format: 'png' },
      { name: 'big', width: 1900, fit: 'inside', format: 'jpeg' },
    ] as const;
    for (const [w, h] of [
      [2997, 1999],
      [1999, 2997],
      [2401, 1601],
      [4000, 3000],
    ]) {
      const path = write(`sizes-${w}x${h}.png`, await fixtures.png(w, h));
      const result = await processImage(path, { variants, maxPixels: MAX_PIXELS });
      for (const spec of variants) {
        const { info } = await sharp(path)
          .resize({ ...spec, withoutEnlargement: true })
          .toBuffer({ resolveWithObject: true });
        const rendered = variant(result, spec.name);
        expect([rendered.width, rendered.height], `${spec.name} of ${w}×${h}`).toEqual([info.width, info.height]);
      }
    }
  });

  it('rejects a decompression bomb from its header, without decoding it', async () => {
    const path = write('bomb.png', fixtures.bombPng());
    // Pixels are only ever decoded by a pipeline's output (toBuffer, toFile, stats); metadata()
    // reads the header. Only pipelines reading this file count (sharp keeps its input in
    // options.input): work of another test still running must not.
    const decodes = (['toBuffer', 'toFile', 'stats'] as const).map((method) => vi.spyOn(sharp.prototype, method));
    const ofBomb = (decode: (typeof decodes)[number]) =>
      decode.mock.contexts.filter((image) => (image as unknown as { options: { input: { file?: string } } }).options.input.file === path);
    let probed: unknown;
    let processed: unknown;
    try {
      probed = await probeImage(path, MAX_PIXELS).catch((e: unknown) => e);
      processed = await processWithDefaults(path).catch((e: unknown) => e);
      for (const decode of decodes) expect(ofBomb(decode)).toEqual([]);
    } finally {
      for (const decode of decodes) decode.mockRestore();
    }
    expect(probed).toBeInstanceOf(MediaError);
    expect(processed).toBeInstanceOf(MediaError);
    expect(probed).toMatchObject({ reason: 'image-too-large' });
    expect(processed).toMatchObject({ reason: 'image-too-large' });
    expect(probed).toMatchObject({ width: 20_000, height: 20_000, maxPixels: MAX_PIXELS });
  });

  it('probeImage reports oriented dimensions', async () => {
    const path = write('probe-rotated.jpg', await fixtures.jpeg(400, 300, { orientation: 8 }));
    await expect(probeImage(path, MAX_PIXELS)).resolves.toEqual({ width: 300, height: 400 });
    await expect(probeImage(path, 1000)).rejects.toBeInstanceOf(MediaError);
    await expect(probeImage(path, 1000)).rejects.toMatchObject({ reason: 'image-too-large' });
  });

  it('a truncated JPEG is a MediaError "unreadable-image"', async () => {
    const whole = await fixtures.bigJpeg(0.5);
    const path = write('truncated.jpg', whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(processWithDefaults(path)).rejects.toBeInstanceOf(MediaError);
    await expect(processWithDefaults(path)).rejects.toMatchObject({ reason: 'unreadable-image' });
  });

  it('garbage and SVG are MediaErrors (unreadable, unsupported), never handed to a decoder they could abuse', async () => {
    const garbage = write('garbage.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), fixtures.randomBinary(2000)]));
    await expect(processWithDefaults(garbage)).rejects.toBeInstanceOf(MediaError);
    await expect(processWithDefaults(garbage)).rejects.toMatchObject({ reason: 'unreadable-image' });
    const svg = write('image.svg', fixtures.svg());
    await expect(processWithDefaults(svg)).rejects.toThrow(/unsupported image format: svg/);
    await expect(processWithDefaults(svg)).rejects.toMatchObject({ reason: 'unsupported-image' });
  });

  it('names the variant that failed twice', async () => {
    const path = write('named.png', await fixtures.png(50, 50));
    const error = await processImage(path, {
      variants: [{ name: 'broken', width: 10, fit: 'inside', format: 'webp', quality: 1000 }],
      maxPixels: MAX_PIXELS,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ reason: 'variant-failed', variant: 'broken' });
  });
});

describe('12 MP benchmark', () => {
  let path: string;
  beforeAll(async () => {
    path = write('12mp.jpg', await fixtures.bigJpeg(12));
  }, 60_000);

  it('processes a 4000×3000 JPEG (timing logged, not asserted)', async () => {
    await processWithDefaults(path);
    const runs: number[] = [];
    let result: ProcessedImage | undefined;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      result = await processWithDefaults(path);
      runs.push(performance.now() - started);
    }
    console.log(`12 MP JPEG processed in ${runs.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
    expect([result!.width, result!.height]).toEqual([4000, 3000]);
    expect([variant(result!, 'thumb').width, variant(result!, 'thumb').height]).toEqual([200, 200]);
    expect([variant(result!, 'medium').width, variant(result!, 'medium').height]).toEqual([800, 600]);
  });

  it('20 parallel uploads are decoded at most one per core at a time', async () => {
    // Each image runs its sharp operations one after another, so sharp's count of operations in
    // flight tracks the number of images being worked on. The count can briefly include one
    // image's next operation before its previous one is counted out, hence twice the limit; without
    // the limit all 20 would be queued at once.
    let peak = 0;
    const sampler = setInterval(() => {
      const { queue, process: running } = sharp.counters();
      peak = Math.max(peak, queue + running);
    }, 2);
    const started = performance.now();
    try {
      const results = await Promise.all(Array.from({ length: 20 }, () => processWithDefaults(path)));
      expect(results).toHaveLength(20);
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `20 parallel 12 MP JPEGs in ${(performance.now() - started).toFixed(0)} ms, peak ${peak} sharp operations in flight, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2 * availableParallelism());
  }, 60_000);
});
