// `npm run bench:studio [-- --rounds 10 --rows 100]`: how long the studio takes, on localhost, to
// a usable document list and a usable edit page (docs/benchmarks.md, "Studio"). It starts the
// built server (`vellum serve`, SQLite in a temp dir) with the bench schemas, creates `rows`
// posts, signs in with Debian's Chromium and loads each page `rounds` times, with the browser's
// cache (warm: what an editor sees every day) and without it (cold: the first visit after a
// release). "Usable" is when the page's own content is there: the list's rows, the edit form's
// title field holding the document's title and enabled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { ADMIN, api, create, pool, postBody, writeConfig } from './setup.mjs';
import { cleanups, createLog, freePort, start, stop, waitFor } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'packages/cli/dist/bin.js');
const log = createLog('studio');
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '10' }, rows: { type: 'string', default: '100' } },
});
const rounds = Number(values.rounds);
const rows = Number(values.rows);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-studio-'));
const configFile = writeConfig(tmp, 'vellum.config.json', {});
const port = await freePort();
const base = `http://localhost:${port}`;
const server = start([BIN, 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'], { cwd: tmp });
let browser;
try {
  await waitFor(`${base}/api/health`, server);
  const login = await api(base, 'POST', '/api/auth/login', undefined, { username: ADMIN.username, password: ADMIN.password });
  const token = login.json.data.token;
  const authors = await pool(10, 5, (i) => create(base, token, 'author', { name: `Author ${i}` }));
  const postIds = await pool(rows, 8, (i) => create(base, token, 'post', postBody(i, authors)));
  const lastTitle = postBody(rows - 1, authors).title;
  log(`${rows} posts on ${base}`);

  browser = await chromium.launch({
    executablePath: process.env.VELLUM_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP localhost 127.0.0.1`],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/studio/sign-in`);
  await page.getByLabel('Username or email').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
  const cdp = await context.newCDPSession(page);

  const listUrl = `${base}/studio/documents/post`;
  const editUrl = `${base}/studio/documents/post/${postIds[rows - 1]}`;
  const pageRows = page.locator('main tbody tr, main [data-row]');
  const scenarios = {
    list: {
      url: listUrl,
      usable: async () => {
        await pageRows.first().waitFor();
        return pageRows.count();
      },
    },
    // 100 rows a page (`?size=100`; a studio without the choice shows its 20: see the last column).
    list100: {
      url: `${listUrl}?size=100`,
      usable: async () => {
        await pageRows
          .nth(Math.min(rows, 100) - 1)
          .waitFor({ timeout: 5000 })
          .catch(() => undefined);
        return pageRows.count();
      },
    },
    edit: {
      url: editUrl,
      usable: async () => {
        // The title field holds the document's title and can be typed in (run in the page).
        await page.waitForFunction((want) => {
          const input = [...globalThis.document.querySelectorAll('main input')].find((i) => i.value === want);
          return !!input && !input.disabled;
        }, lastTitle);
        return page.locator('main form input, main form textarea, main form select, main form [contenteditable]').count();
      },
    },
  };
  const results = [];
  for (const [name, s] of Object.entries(scenarios)) {
    for (const cache of ['warm', 'cold']) {
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: cache === 'cold' });
      const times = [];
      let shown = 0;
      for (let i = 0; i < rounds + 1; i++) {
        const t0 = performance.now();
        await page.goto(s.url, { waitUntil: 'commit' });
        shown = await s.usable();
        // The first round fills the cache (warm) or the connection pool: not counted.
        if (i > 0) times.push(performance.now() - t0);
      }
      results.push({ name, cache, median: median(times), max: Math.max(...times), shown });
      log(`${name} (${cache}): median ${median(times).toFixed(0)} ms`);
    }
  }
  process.stdout.write(`\n| page | cache | median ms | max ms | rows or fields shown |\n| --- | --- | ---: | ---: | ---: |\n`);
  for (const r of results) process.stdout.write(`| ${r.name} | ${r.cache} | ${r.median.toFixed(0)} | ${r.max.toFixed(0)} | ${r.shown} |\n`);
} finally {
  await browser?.close();
  await stop(server, 5000);
  for (const c of cleanups.reverse()) await c();
  rmSync(tmp, { recursive: true, force: true });
}
