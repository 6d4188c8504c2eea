// Writes `<file>.br` and `<file>.gz` beside each text file of the build (dist/) of at least 1 KiB,
// at the highest levels: the server sends them as they are to browsers that accept them
// (docs/studio.md, "Serving"), so no request compresses anything.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
const TEXT = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.map']);

let before = 0;
let after = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (TEXT.has(extname(name))) compress(full);
  }
};
const compress = (file) => {
  const body = readFileSync(file);
  if (body.length < 1024) return;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  before += body.length;
  after += br.length;
};
walk(DIST);
console.log(`precompressed the studio: ${Math.round(before / 1024)} KiB → ${Math.round(after / 1024)} KiB (br)`);
