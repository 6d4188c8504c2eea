import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VellumClient, type Media } from '@vellum/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { png } from '../helpers/media-fixtures.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

/**
 * `examples/blog` (docs/getting-started.md, "A front end"): its types are what `vellum types`
 * writes for its config, it compiles, and built, against a started Vellum with a published post,
 * it lists the post with its cover and author and shows it by its slug.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/blog');
const require = createRequire(import.meta.url);
let work: string;
let vellum: ServeProcess;
let site: ChildProcess | undefined;

beforeAll(async () => {
  assertCliBuilt();
  work = mkdtempSync(join(tmpdir(), 'vellum-example-blog-'));
  copyFileSync(join(EXAMPLE, 'vellum.config.ts'), join(work, 'vellum.config.ts'));
  vellum = await startServe(work, { VELLUM_ADMIN_USERNAME: 'admin', VELLUM_ADMIN_PASSWORD: 'admin-password-1' });
});

afterAll(async () => {
  site?.kill('SIGTERM');
  await vellum?.stop();
  rmSync(work, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: EXAMPLE });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('examples/blog', () => {
  it('its committed types are what vellum types writes for its config', async () => {
    const types = await runCli(['types', '--config', join(EXAMPLE, 'vellum.config.ts')]);
    expect(types.code, types.stderr).toBe(0);
    expect(types.stdout).toBe(readFileSync(join(EXAMPLE, 'src/vellum-types.ts'), 'utf8'));
  });

  it('builds, and serves the published posts: a list with covers and authors, a page by slug, 404 otherwise', async () => {
    // Built where its `npm run build` puts it (gitignored), so it finds @vellum/client as installed.
    const dist = join(EXAMPLE, 'dist');
    const built = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json']);
    expect(built.code, built.out).toBe(0);

    // A signed-in client holds the tokens of its login.
    const api = new VellumClient({ baseUrl: vellum.api });
    expect((await api.login('admin', 'admin-password-1')).kind).toBe('signedIn');
    const image: Media = await api.uploadMedia(new Blob([await png(120, 80)]), { filename: 'harbour.png', alt: 'The harbour at dawn' });
    const ada = await api.create('author', { name: 'Ada <Lovelace>', _status: 'published' });
    await api.create('post', {
      title: 'Straße über Ærø',
      excerpt: 'An island & its ferry',
      cover: image._id,
      body: '<p>The ferry leaves at <strong>seven</strong>.</p>',
      author: ada._id,
      _status: 'published',
    });
    await api.create('post', { title: 'A draft nobody reads' });

    const port = await freePort();
    site = spawn(process.execPath, [join(dist, 'server.js')], { env: { ...process.env, VELLUM_URL: vellum.api, PORT: String(port) } });
    let said = '';
    site.stderr!.on('data', (d) => (said += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the site did not start: ${said}`)), 20_000);
      site!.stdout!.on('data', (d) => {
        said += d;
        if (said.includes('The blog is at')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const base = `http://127.0.0.1:${port}`;

    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    const list = await home.text();
    expect(list).toContain('<a href="/posts/strasse-ueber-aero">Straße über Ærø</a>');
    expect(list).toContain('<p>An island &#38; its ferry</p>');
    expect(list).toContain('by Ada &#60;Lovelace&#62;');
    expect(list).not.toContain('A draft nobody reads');
    const src = /<img src="([^"]+)" alt="The harbour at dawn"/.exec(list)?.[1];
    expect(src).toBe(new URL(image.url, vellum.api).href);
    const picture = await fetch(src!);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/png']);

    const post = await fetch(`${base}/posts/strasse-ueber-aero`);
    expect(post.status).toBe(200);
    const shown = await post.text();
    expect(shown).toContain('<h1>Straße über Ærø</h1>');
    expect(shown).toContain('<p>The ferry leaves at <strong>seven</strong>.</p>');
    expect((await fetch(`${base}/posts/nope`)).status).toBe(404);
  });
});
