import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The studio's first page loads at most 350 KB of gzipped JavaScript (docs/studio.md,
// "Building"): what index.html loads, scripts and module preloads; every other page is a chunk.
const DIST = join(import.meta.dirname, '../../packages/studio/dist');
const LIMIT = 350 * 1024;

describe('studio bundle size', () => {
  it('the JavaScript index.html loads is at most 350 KB gzipped', () => {
    expect(existsSync(join(DIST, 'index.html')), 'the studio is built (npm run build)').toBe(true);
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/studio\/([^"]+\.js)"/g)].map(
      (m) => m[1],
    );
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length, 0);
    console.log(`studio first page: ${scripts.length} script(s), ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(LIMIT);
  });
});
