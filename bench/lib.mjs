// Plumbing shared by the benchmark scripts (bench/run.mjs, bench/media.mjs): child processes and
// their ports, RSS sampling through /proc, and the cleanup that runs however a run ends.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A logger to stderr (progress and diagnostics), so stdout stays machine-readable: `[prefix] msg`. */
export const createLog = (prefix) => (msg) => process.stderr.write(`[${prefix}] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Every child started through `start`, so the watchdog can kill them all. */
export const children = [];
/** What to undo at the end (see `guardRun`); scripts push onto it as they create things. */
export const cleanups = [];

/** Asks the OS for a free port (bind to 0, read it, release it): the CLI needs a port number up front. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Spawns a child and remembers it, so cleanup kills it whatever path the run ends on. */
export function start(args, options) {
  const child = spawn(process.execPath, args, options);
  children.push(child);
  child.exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return child;
}

/**
 * SIGTERM, then SIGKILL if the child has not exited after 5 s. With `killWaitMs`, also waits (that
 * long at most) for the killed child's exit.
 */
export async function stop(child, killWaitMs = 0) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timedOut = await Promise.race([child.exited.then(() => false), sleep(5000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    if (killWaitMs > 0) await Promise.race([child.exited, sleep(killWaitMs)]);
  }
}

/** Polls the URL until it answers 200; fails early if the child dies (bad config, port taken...). */
export async function waitFor(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before ${url} answered`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/**
 * The port a child listens on, from the `port=<N>` line it prints on stdout once listening (the
 * bench's helper servers do); fails if the child exits first. `what` names it in that failure.
 */
export function announcedPort(child, what) {
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = /port=(\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with code ${code}`)));
  });
}

/**
 * Starts bench/baseline-server.mjs (a bare Fastify answering `path` with `bytes`) in a child
 * process of its own, so it shares no event loop with autocannon, and answers its URL and child.
 */
export async function startBaseline(dir, bytes, path) {
  const bodyFile = join(dir, `baseline-${Date.now()}.json`);
  writeFileSync(bodyFile, bytes);
  const child = start([join(dirname(fileURLToPath(import.meta.url)), 'baseline-server.mjs'), bodyFile, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => stop(child));
  const port = await announcedPort(child, 'baseline server');
  const url = `http://127.0.0.1:${port}${path}`;
  await waitFor(url, child);
  return { url, child };
}

/** VmRSS of a process in kB, or null (process gone, no /proc). */
export function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) || null;
  } catch {
    return null;
  }
}

/**
 * Samples VmRSS of `pid` every `everyMs` into `into.maxKb`, skipping the ticks where `into.active`
 * is false (a sampler kept for measured runs only); returns a function that stops it. Where a
 * reading fails (process gone, no /proc) the maximum stays as is.
 */
export function sampleRss(pid, into, everyMs) {
  const timer = setInterval(() => {
    if (into.active === false) return;
    const kb = rssKb(pid);
    if (kb !== null) into.maxKb = Math.max(into.maxKb, kb);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Arms the watchdog (after `watchdogMs`: kill every child, clean up, exit 1) and the SIGINT and
 * SIGTERM handlers (clean up, exit 130 or 143), and returns `cleanup` for main's own end.
 *
 * `cleanup` runs the cleanups once, in reverse order of registration (a server stopped before its
 * database is dropped or its temp dir removed), each on its own so one failure does not skip the
 * rest. A signal, the watchdog and main's own end or failure may all ask for it: they share the
 * one run.
 */
export function guardRun(log, watchdogMs) {
  let cleaning;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          await fn();
        } catch (err) {
          log(`cleanup: ${err.message}`);
        }
      }
    })();
    return cleaning;
  };

  const watchdog = setTimeout(() => {
    log(`watchdog: still running after ${watchdogMs / 1000} s, giving up`);
    for (const c of children) c.kill('SIGKILL');
    cleanup().finally(() => process.exit(1));
  }, watchdogMs);
  watchdog.unref();
  // Ctrl-C or a kill must not leave a server, a temp dir or a database behind.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])
    process.once(signal, () => cleanup().finally(() => process.exit(code)));
  return cleanup;
}

/**
 * The node flags of the root package's `start` script (`node --flag … packages/cli/dist/bin.js
 * serve`): the benchmark runs the server exactly as `npm start` does.
 */
export function npmStartNodeFlags() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const tokens = start.split(/\s+/);
  return tokens
    .slice(
      1,
      tokens.findIndex((t) => t.endsWith('.js')),
    )
    .filter((t) => t.startsWith('--'));
}

/**
 * The reader of bench/eld-probe.mjs in `child` (which must run with VELLUM_ELD_FILE=`file`):
 * `window()` signals the probe and resolves with what it measured since the previous signal,
 * {p50_ms, p99_ms, max_ms, mean_ms}: call it when a measured window opens (to start afresh) and
 * when it closes. Null when the probe does not answer within 5 s (no /proc, a busy server).
 */
export function eldReader(child, file) {
  let seq = 0;
  return async () => {
    child.kill('SIGUSR2');
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      try {
        const stats = JSON.parse(readFileSync(file, 'utf8'));
        if (stats.seq > seq) {
          seq = stats.seq;
          delete stats.seq;
          return stats;
        }
      } catch {
        /* not written yet */
      }
      await sleep(20);
    }
    return null;
  };
}
