// Vellum media benchmark: `npm run bench:media` (SQLite, local media storage).
// Generates photo-like JPEGs with sharp, starts the built server in a child process on 127.0.0.1
// and measures uploads (sequential 12 MP, then a burst of 20 parallel ~10 MiB files while
// sampling the server's RSS) and file serving (a thumbnail, a 64 KiB range of an original).
// One JSON line per scenario on stdout; progress and diagnostics go to stderr.
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { cleanups, createLog, freePort, guardRun, npmStartNodeFlags, rssKb, sampleRss, sleep, start, stop, waitFor } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
// The node flags `npm start` uses, plus extra ones for profiling (VELLUM_BENCH_SERVER_FLAGS=--cpu-prof).
const SERVER_FLAGS = [...npmStartNodeFlags(), ...(process.env.VELLUM_BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)];
const ADMIN = { username: 'admin', password: 'bench-password-1', email: 'admin@example.com' };
const MiB = 1024 * 1024;

const PHOTO = { width: 4000, height: 3000, noise: 28, quality: 90 }; // 12 MP, ~3.6 MB: a phone photo
const UPLOAD_WARMUP = 2;
const UPLOAD_RUNS = 10;
const UPLOAD_TARGET_MS = 600;

// The burst: 20 distinct 24 MP JPEGs of ~10 MiB each (noise calibrated on the first one).
const BIG = { width: 6000, height: 4000, noise: 40, quality: 93 };
const BIG_COUNT = 20;
const BIG_TARGET_BYTES = 10 * MiB;
const BIG_TOLERANCE = 0.1;
const GROWTH_TARGET_MB = 150;
const RSS_SAMPLE_MS = 50;

const CONNECTIONS = 10;
const WARMUP_S = 2;
const MEASURE_S = 10;
const RANGE = 'bytes=0-65535';
// Hard ceiling for the whole run: a hung server or upload must not keep the process alive.
const WATCHDOG_MS = 8 * 60_000;

const log = createLog('bench:media');
const emit = (line) => process.stdout.write(JSON.stringify(line) + '\n');
const round1 = (n) => Math.round(n * 10) / 10;

/**
 * A photo-like RGB image: smooth gradients and low-frequency waves (the seed shifts their phase)
 * plus per-pixel noise, so it compresses like a photo rather than like random bytes. JPEG-encoded.
 */
async function photoLike({ width, height, noise, quality }, seed) {
  const px = new Uint8ClampedArray(width * height * 3); // clamps (and rounds) on assignment
  const rx = new Float64Array(width);
  const gy = new Float64Array(height);
  const bxy = new Float64Array(width + height);
  for (let x = 0; x < width; x++) rx[x] = (200 * x) / width + 30 * Math.sin((x + seed * 97) / 150);
  for (let y = 0; y < height; y++) gy[y] = 30 + (200 * y) / height + 30 * Math.cos((y + seed * 61) / 110);
  for (let i = 0; i < width + height; i++) bxy[i] = 128 + 90 * Math.sin(i / 300 + seed);
  let s = (Math.imul(seed + 1, 2654435761) ^ 0x9e3779b9) >>> 0 || 1; // xorshift32 state
  let i = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const n = ((s >>> 0) / 4294967296 - 0.5) * noise;
      px[i++] = rx[x] + n;
      px[i++] = gy[y] + n;
      px[i++] = bxy[x + y] + n;
    }
  }
  return sharp(Buffer.from(px.buffer), { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * Writes the 12 MP photo and the 20 burst files into `dir`. The burst's noise level is calibrated
 * on seed 0 so the files land at ~10 MiB whatever libjpeg build sharp ships with.
 */
async function generateImages(dir) {
  const t0 = Date.now();
  const photoPath = join(dir, 'photo-12mp.jpg');
  writeFileSync(photoPath, await photoLike(PHOTO, 0));
  log(`12 MP photo: ${statSync(photoPath).size} bytes`);

  const params = { ...BIG };
  let first;
  for (let attempt = 0; attempt < 6; attempt++) {
    first = await photoLike(params, 0);
    const ratio = BIG_TARGET_BYTES / first.length;
    if (Math.abs(ratio - 1) <= 0.03) break;
    // Size grows roughly as noise^0.65 in this range: correct the noise accordingly.
    params.noise = Math.min(255, Math.max(1, params.noise * ratio ** 1.5));
    log(`calibrating burst files: ${first.length} bytes, noise now ${params.noise.toFixed(1)}`);
  }
  const bigPaths = [];
  for (let i = 0; i < BIG_COUNT; i++) {
    const path = join(dir, `big-${String(i).padStart(2, '0')}.jpg`);
    writeFileSync(path, i === 0 ? first : await photoLike(params, i));
    const size = statSync(path).size;
    if (Math.abs(size / BIG_TARGET_BYTES - 1) > BIG_TOLERANCE) {
      throw new Error(`${path} is ${size} bytes, outside ${BIG_TARGET_BYTES} ±${BIG_TOLERANCE * 100}%`);
    }
    bigPaths.push(path);
  }
  const sizes = bigPaths.map((p) => statSync(p).size);
  log(
    `${BIG_COUNT} burst files (${BIG.width}×${BIG.height}, noise ${params.noise.toFixed(1)}, q${params.quality}): ` +
      `${Math.min(...sizes)}–${Math.max(...sizes)} bytes, ${sizes.reduce((a, b) => a + b, 0)} in all; images ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { photoPath, bigPaths };
}

/**
 * One multipart upload (`alt` then `file`), the file piped from disk into the request. node:http
 * rather than fetch: with fetch (Node 20.20, body a FormData of fs.openAsBlob or a file stream)
 * the client's ArrayBuffer memory grew by the bytes not yet read by the server, about 10 MB per
 * upload and 200 MB for the burst; a pipe into an http request leaves in-flight bytes to the
 * kernel and holds a few 64 KiB chunks.
 * Times from sending the request to having read the whole response.
 */
function upload(base, token, path, name) {
  const boundary = `----vellum-bench-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="alt"\r\n\r\nbench ${name}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(path).size + tail.length;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = httpRequest(`${base}/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
    });
    // A stuck upload fails the run instead of hanging it (the timeout is for socket inactivity).
    req.setTimeout(120_000, () => req.destroy(new Error(`upload of ${name} timed out`)));
    req.on('error', reject); // after a response (the server may answer early and close), a no-op
    req.once('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.once('end', () => {
        let json = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, json, ms: performance.now() - t0 });
      });
    });
    req.write(head);
    const file = createReadStream(path);
    file.on('error', (err) => req.destroy(err));
    file.once('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

/** Nearest-rank percentile of an ascending array. */
const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (sorted) =>
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;

async function uploadSequential(base, token, photoPath) {
  log('scenario upload_12mp_jpeg');
  const times = [];
  let last;
  for (let i = 0; i < UPLOAD_WARMUP + UPLOAD_RUNS; i++) {
    const r = await upload(base, token, photoPath, `photo-${i}.jpg`);
    if (r.status !== 201) throw new Error(`upload ${i}: ${r.status} ${JSON.stringify(r.json)}`);
    if (i >= UPLOAD_WARMUP) times.push(r.ms);
    last = r.json.data;
  }
  const sorted = [...times].sort((a, b) => a - b);
  emit({
    scenario: 'upload_12mp_jpeg',
    median_ms: round1(median(sorted)),
    p90_ms: round1(percentile(sorted, 90)),
    min_ms: round1(sorted[0]),
    max_ms: round1(sorted.at(-1)),
    file_bytes: statSync(photoPath).size,
    target_ms: UPLOAD_TARGET_MS,
  });
  return last;
}

async function uploadBurst(base, token, pid, bigPaths, rss) {
  log(`scenario parallel_uploads_20x10mb`);
  await sleep(1000); // let the previous scenario's garbage settle before the baseline reading
  const burst = { maxKb: 0 };
  const stopSampler = sampleRss(pid, burst, RSS_SAMPLE_MS);
  const beforeKb = rssKb(pid);
  burst.maxKb = Math.max(burst.maxKb, beforeKb ?? 0);
  // The client's own memory, to show the bodies are streamed (stderr only).
  const client = { rss: 0, arrayBuffers: 0 };
  const clientTimer = setInterval(() => {
    const m = process.memoryUsage();
    client.rss = Math.max(client.rss, m.rss);
    client.arrayBuffers = Math.max(client.arrayBuffers, m.arrayBuffers);
  }, RSS_SAMPLE_MS);
  const clientBefore = process.memoryUsage();

  const t0 = performance.now();
  const results = await Promise.all(
    bigPaths.map((p, i) => upload(base, token, p, `big-${i}.jpg`).catch((err) => ({ status: 0, json: { error: err.message }, ms: 0 }))),
  );
  const totalMs = performance.now() - t0;
  await sleep(250); // a last few samples: memory can still rise while the final response is flushed
  stopSampler();
  clearInterval(clientTimer);
  rss.maxKb = Math.max(rss.maxKb, burst.maxKb);

  const bad = results.filter((r) => r.status !== 201);
  for (const r of bad) log(`  non-201: ${r.status} ${JSON.stringify(r.json)}`);
  const each = results.map((r) => r.ms).sort((a, b) => a - b);
  log(
    `  per-upload ms: min ${Math.round(each[0])}, median ${Math.round(median(each))}, max ${Math.round(each.at(-1))}; ` +
      `bench client RSS ${Math.round(clientBefore.rss / MiB)} -> peak ${Math.round(client.rss / MiB)} MB, ` +
      `ArrayBuffers ${Math.round(clientBefore.arrayBuffers / MiB)} -> peak ${Math.round(client.arrayBuffers / MiB)} MB`,
  );
  const beforeMb = (beforeKb ?? 0) / 1024;
  const peakMb = burst.maxKb / 1024;
  emit({
    scenario: 'parallel_uploads_20x10mb',
    total_ms: Math.round(totalMs),
    rss_before_mb: Math.round(beforeMb),
    rss_peak_mb: Math.round(peakMb),
    rss_growth_mb: Math.round(peakMb - beforeMb),
    non201: bad.length,
    target_growth_mb: GROWTH_TARGET_MB,
  });
}

/** A 2 s warm-up (discarded) then the 10 s measured autocannon run against one URL. */
async function serve(name, url, { headers = {}, expect }) {
  log(`scenario ${name}`);
  // One request first: the file must answer as expected, and its body size goes in the line.
  const probe = await fetch(url, { headers });
  const body = Buffer.from(await probe.arrayBuffer());
  if (probe.status !== expect) throw new Error(`${name}: ${url} answered ${probe.status}, expected ${expect}`);
  log(`  ${url}: ${probe.status} ${probe.headers.get('content-type')} ${body.length} bytes`);

  const opts = { url, headers, connections: CONNECTIONS };
  await autocannon({ ...opts, duration: WARMUP_S });
  const r = await autocannon({ ...opts, duration: MEASURE_S });
  if (r.errors || r.timeouts) log(`  ${name}: ${r.errors} connection errors, ${r.timeouts} timeouts`);
  const expected = r.statusCodeStats?.[expect]?.count ?? 0;
  const unexpected = r.requests.total - expected + r.errors + r.timeouts;
  if (unexpected) log(`  ${name}: status codes ${JSON.stringify(r.statusCodeStats)}`);
  const line = { scenario: name, rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx };
  if (expect !== 200) line[`non${expect}`] = unexpected;
  else line.errors = r.errors + r.timeouts;
  line.bytes_per_response = body.length;
  emit(line);
}

/**
 * Image transforms of the 12 MP photo (docs/media.md): `transform_cold` asks for a new width with
 * every request, so each one decodes, resizes, encodes WebP and stores the result;
 * `transform_cached` asks for one transform again and again, which is a read of the stored file.
 */
async function transforms(base, photo) {
  const path = new URL(photo.url, base).pathname;
  log('scenario transform_cold');
  let width = 300;
  const cold = await autocannon({
    url: base,
    connections: 4,
    duration: MEASURE_S,
    requests: [{ setupRequest: (req) => ({ ...req, path: `${path}?format=webp&w=${width++}` }) }],
  });
  const coldOk = cold.statusCodeStats?.['200']?.count ?? 0;
  emit({
    scenario: 'transform_cold',
    rps: round1(cold.requests.average),
    p50_ms: cold.latency.p50,
    p99_ms: cold.latency.p99,
    rendered: coldOk,
    non2xx: cold.non2xx,
  });
  await serve('transform_cached', `${base}${path}?format=webp&w=800`, { expect: 200 });
}

async function main() {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-media-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));

  // Images first, so their generation neither competes with the server for CPU nor shows in its RSS.
  const { photoPath, bigPaths } = await generateImages(tmp);

  const configFile = join(tmp, 'vellum.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      security: { adminUser: ADMIN, bcryptRounds: 4 }, // cheap hashing: login is not what we measure
      // Free parameters unsigned, so the transform scenarios can ask for any width.
      media: { maxFileSize: '50MB', transforms: { public: true } },
    }),
  );

  // Default log level (info): request logging is part of the real cost. Its stdout is dropped so it
  // neither floods the terminal nor mixes with our JSON lines; stderr stays visible.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start([...SERVER_FLAGS, BIN, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: tmp, // the server's ./data lands in the temp dir, not in the repo
    env: { ...process.env, DATABASE_URL: `sqlite:${join(tmp, 'bench.db')}`, MEDIA_DIR: join(tmp, 'media') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A server still busy with uploads may not finish within the grace period: stop kills it, and
  // waits for its exit so the temp dir is not removed under a live process.
  cleanups.push(() => stop(server, 2000));
  await waitFor(`${base}/api/health`, server);
  log(`server up on ${base}, pid ${server.pid}, RSS ${Math.round((rssKb(server.pid) ?? 0) / 1024)} MB`);
  const rss = { maxKb: 0 };
  sampleRss(server.pid, rss, 200); // the whole run, for the summary

  const loginRes = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    signal: AbortSignal.timeout(30_000),
  });
  const login = await loginRes.json().catch(() => null);
  if (loginRes.status !== 200) throw new Error(`login: ${loginRes.status} ${JSON.stringify(login)}`);
  const token = login.data.token;

  const photo = await uploadSequential(base, token, photoPath);
  await uploadBurst(base, token, server.pid, bigPaths, rss);

  if (!photo.variants?.thumb) throw new Error(`the upload has no thumb variant: ${JSON.stringify(photo)}`);
  await serve('serve_thumb', new URL(photo.variants.thumb, base).href, { expect: 200 });
  await serve('serve_original_range', new URL(photo.url, base).href, { headers: { range: RANGE }, expect: 206 });

  await transforms(base, photo);

  rss.maxKb = Math.max(rss.maxKb, rssKb(server.pid) ?? 0);
  emit({ scenario: 'summary', max_rss_mb: Math.round(rss.maxKb / 1024) });
}

const cleanup = guardRun(log, WATCHDOG_MS);
main().then(cleanup, async (err) => {
  log(`error: ${err.stack ?? err.message}`);
  await cleanup();
  process.exitCode = 1;
});
