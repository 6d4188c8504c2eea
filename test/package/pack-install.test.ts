import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The packages as a newcomer gets them (docs/getting-started.md): `npm pack` of each, the scaffold
 * run from its tarball as `npm create vellum` runs it, the tarballs installed into the new project
 * outside the repository (nothing from the registry of ours; third-party packages from npm's cache
 * where it has them), then the installed `vellum` started and read and written through the
 * installed `@vellum/client`.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['packages/client', 'packages/server', 'packages/studio', 'packages/cli', 'packages/create-vellum'];
const work = mkdtempSync(join(tmpdir(), 'vellum-pack-'));
const children: Array<ReturnType<typeof spawn>> = [];

afterAll(() => {
  // The whole group: npx does not pass SIGTERM on to the `vellum serve` it started, which outlived the run.
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // The group is gone already.
    }
  }
  rmSync(work, { recursive: true, force: true });
});

/** Runs a command to its end; rejects with its output when it fails. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

describe('installable packages', () => {
  it('pack, scaffold from the tarball, install the tarballs, start vellum, read and write through @vellum/client', async () => {
    const packs = join(work, 'packs');
    mkdirSync(packs);
    await run('npm', ['pack', ...PACKAGES.flatMap((p) => ['-w', p]), '--pack-destination', packs], ROOT);
    const tarballs = readdirSync(packs).sort();
    expect(tarballs).toEqual([
      'create-vellum-0.1.0.tgz',
      'vellum-0.1.0.tgz',
      'vellum-client-0.1.0.tgz',
      'vellum-server-0.1.0.tgz',
      'vellum-studio-0.1.0.tgz',
    ]);

    // `npm create vellum@latest my-site` is `npm exec create-vellum my-site`: here from the tarball.
    await run('npm', ['exec', '--yes', `--package=${join(packs, 'create-vellum-0.1.0.tgz')}`, '--', 'create-vellum', 'my-site'], work);
    const site = join(work, 'my-site');
    expect(readdirSync(site).sort()).toEqual(['.gitignore', 'README.md', 'package.json', 'vellum.config.ts']);

    const local = tarballs.filter((t) => t !== 'create-vellum-0.1.0.tgz').map((t) => join(packs, t));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...local], site);
    // The client has no dependencies and imports nothing of the server; the S3 SDK is optional.
    const clientPkg = JSON.parse(readFileSync(join(site, 'node_modules/@vellum/client/package.json'), 'utf8'));
    expect(clientPkg.dependencies).toBeUndefined();
    const serverPkg = JSON.parse(readFileSync(join(site, 'node_modules/@vellum/server/package.json'), 'utf8'));
    expect(Object.keys(serverPkg.optionalDependencies)).toEqual(['@aws-sdk/client-s3']);

    // Types offline, from the config alone.
    await run('npm', ['run', 'types'], site);
    expect(readFileSync(join(site, 'vellum-types.ts'), 'utf8')).toMatch(/export interface Post extends VellumSystemFields/);

    const port = 30_000 + Math.floor(Math.random() * 20_000);
    const server = spawn('npx', ['vellum', 'serve', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: site,
      detached: true,
      env: { ...process.env, VELLUM_ADMIN_USERNAME: 'admin', VELLUM_ADMIN_PASSWORD: 'admin-password-1' },
    });
    children.push(server);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`vellum serve did not start:\n${output}`)), 60_000);
      const seen = (d: Buffer) => {
        output += d;
        if (/Data: .*\n/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      server.stdout.on('data', seen);
      server.stderr.on('data', seen);
      server.on('exit', (code) => reject(new Error(`vellum serve exited ${code}:\n${output}`)));
    });
    expect(output).toContain(`Data: ${join(site, 'data/vellum.db')} (SQLite)`);

    writeFileSync(
      join(site, 'check.mjs'),
      `import { VellumClient } from '@vellum/client';
const baseUrl = 'http://127.0.0.1:${port}/api';
const signedIn = await new VellumClient({ baseUrl }).auth.login('admin', 'admin-password-1');
const vellum = new VellumClient({ baseUrl, token: signedIn.token });
const ada = await vellum.create('author', { name: 'Ada Lovelace', _status: 'published' });
await vellum.create('post', { title: 'Straße über Ærø', body: '<p>Hello</p>', author: ada._id, _status: 'published' });
const anonymous = new VellumClient({ baseUrl });
const { data } = await anonymous.documents('post').list({ expand: 'author' });
const studio = await fetch('http://127.0.0.1:${port}/studio/');
console.log(JSON.stringify({ posts: data.map((p) => [p.title, p.slug.current, p.author.name]), studio: studio.status }));
`,
    );
    const checked = JSON.parse((await run('node', ['check.mjs'], site)).trim());
    expect(checked).toEqual({ posts: [['Straße über Ærø', 'strasse-ueber-aero', 'Ada Lovelace']], studio: 200 });
  });
});
