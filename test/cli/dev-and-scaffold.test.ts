import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CLI, runCli } from '../helpers/cli.js';

/**
 * `create-vellum` (the scaffold) and `vellum dev` on what it makes (docs/getting-started.md,
 * docs/cli.md "Serving"): readable logs, a restart when the config is saved, a config with
 * problems leaving the running server alone, types written at each start.
 */
const CREATE = fileURLToPath(new URL('../../packages/create-vellum/bin/create-vellum.js', import.meta.url));
let work: string;

beforeAll(() => {
  assertCliBuilt();
  work = mkdtempSync(join(tmpdir(), 'vellum-dev-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function create(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CREATE, ...args], { cwd: work });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('create-vellum', () => {
  it('writes package.json, a commented vellum.config.ts, .gitignore and a README, and names the next commands', async () => {
    const made = await create(['My Blog']);
    expect(made.code, made.stderr).toBe(0);
    const dir = join(work, 'My Blog');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: 'my-blog',
      private: true,
      type: 'module',
      scripts: { dev: 'vellum dev', start: 'vellum serve', types: 'vellum types --config vellum.config.ts -o vellum-types.ts' },
      dependencies: { vellum: '^0.1.0', '@vellum/client': '^0.1.0' },
    });
    expect(readFileSync(join(dir, 'vellum.config.ts'), 'utf8')).toMatch(/name: 'post'[\s\S]*type: 'slug', source: 'title'/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^data\/$/m);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/^# my-blog$/m);
    expect(made.stdout).toContain("  cd 'My Blog'\n  npm install\n  npm run dev\n");
  });

  it('refuses a folder that is not empty (73) and a missing name (64)', async () => {
    mkdirSync(join(work, 'taken'));
    writeFileSync(join(work, 'taken', 'keep.txt'), 'mine');
    const taken = await create(['taken']);
    expect([taken.code, taken.stderr]).toEqual([73, 'create-vellum: taken is not empty: choose a new folder\n']);
    expect(readFileSync(join(work, 'taken', 'keep.txt'), 'utf8')).toBe('mine');
    const none = await create([]);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/^usage: npm create vellum@latest <folder>/);
  });
});

describe('vellum dev', () => {
  it('serves with readable logs, writes the types, restarts when the config is saved, keeps running on a bad config', async () => {
    expect((await create(['site'])).code).toBe(0);
    const dir = join(work, 'site');
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'dev', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const api = `http://127.0.0.1:${port}/api`;
    const fieldsOf = async (type: string) =>
      ((await (await fetch(`${api}/config/schemas`)).json()) as { data: Array<{ name: string; fields: Array<{ name: string }> }> }).data
        .find((s) => s.name === type)!
        .fields.map((f) => f.name);
    try {
      await expect.poll(() => stdout, { timeout: 30_000 }).toContain('Types: 2 document types in vellum-types.ts');
      expect(stdout).toContain(`Data: ${join(dir, 'data', 'vellum.db')} (SQLite)`);
      expect(readFileSync(join(dir, 'vellum-types.ts'), 'utf8')).toMatch(/export interface Post extends VellumSystemFields/);
      expect((await fetch(`${api}/documents/post`)).status).toBe(200);
      // One readable line per request, not JSON.
      await expect.poll(() => stdout).toMatch(/^\d\d:\d\d:\d\d GET \/api\/documents\/post 200 [\d.]+ ms$/m);
      expect(stdout).not.toMatch(/^\{"level"/m);

      const configFile = join(dir, 'vellum.config.ts');
      const config = readFileSync(configFile, 'utf8');
      writeFileSync(
        configFile,
        config.replace(
          "{ name: 'excerpt', type: 'text', maxLength: 300 },",
          "{ name: 'excerpt', type: 'text', maxLength: 300 },\n        { name: 'subtitle', type: 'string' },",
        ),
      );
      await expect.poll(() => stdout, { timeout: 30_000 }).toContain('vellum.config.ts changed: restarting');
      await expect.poll(() => fieldsOf('post').catch(() => []), { timeout: 30_000 }).toContain('subtitle');
      await expect.poll(() => readFileSync(join(dir, 'vellum-types.ts'), 'utf8'), { timeout: 10_000 }).toContain('subtitle?: string;');

      // A config with a problem: said on stderr; the running server stays as it was.
      writeFileSync(configFile, config.replace("type: 'slug', source: 'title'", "type: 'slug', source: 'nosuch'"));
      await expect.poll(() => stderr, { timeout: 30_000 }).toContain('vellum.config.ts has problems; the server keeps running as it was:');
      expect(await fieldsOf('post')).toContain('subtitle');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('vellum types --config writes the types from the config alone, with no server', async () => {
    expect((await create(['offline'])).code).toBe(0);
    const dir = join(work, 'offline');
    // VELLUM_URL names nothing that answers: the config is all it reads.
    const run = await runCli(['types', '--config', join(dir, 'vellum.config.ts')], { env: { VELLUM_URL: 'http://127.0.0.1:9/api' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/export interface Author extends VellumSystemFields \{[\s\S]*name: string;/);
    expect(run.stdout).toMatch(/export interface VellumSchemas \{\n {2}author: Author;\n {2}post: Post;\n\}/);
    // The config is checked as the server checks it.
    const broken = await runCli(['types', '--config', join(work, 'site', 'vellum.config.ts')]);
    expect(broken.code).toBe(78);
    expect(broken.stderr).toMatch(/source: expected the name of a string field beside it \(got "nosuch"\)/);
  });
});
