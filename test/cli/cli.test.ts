import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The committed entry point npm links as `vellum` (it loads the built dist/bin.js).
const BIN = resolve(__dirname, '../../packages/cli/bin/vellum.js');

/** Runs the built `vellum` bin; resolves when it exits or when `until` matches its stdout. */
function run(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; until?: RegExp }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; kill?: () => Promise<number | null> }>((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: { PATH: process.env.PATH, ...opts.env } });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stdout.on('data', (d) => {
      stdout += d;
      if (opts.until?.test(stdout)) done({ code: null, stdout, stderr, kill: () => (child.kill('SIGTERM'), exited) });
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    void exited.then((code) => done({ code, stdout, stderr }));
  });
}

describe('vellum serve', () => {
  it('is built', () => {
    expect(existsSync(BIN)).toBe(true);
  });

  it('a bad configuration prints one line per problem and exits 78', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
    writeFileSync(
      join(cwd, 'vellum.config.json'),
      JSON.stringify({
        security: { passwordPolicy: { minLength: 0 } },
        schemas: [{ name: 'post', fields: [{ name: 't', type: 'nope' }] }],
      }),
    );
    const res = await run(['serve'], { cwd });
    expect(res.code).toBe(78);
    expect(res.stderr).toContain('  security.passwordPolicy.minLength: expected integer ≥ 1\n');
    expect(res.stderr).toContain('  schemas[0].fields[0].type: unknown field type "nope"');
  });

  it('a published example or patterned JWT secret stops start-up with exit 78, naming the key', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
    writeFileSync(
      join(cwd, 'vellum.config.json'),
      JSON.stringify({ security: { jwtSecret: 'at least 32 bytes; generated and stored in the database when unset' } }),
    );
    // Should it start after all, it is stopped before the assertions fail.
    const serve = (env?: NodeJS.ProcessEnv) => run(['serve', '--port', '0', '--host', '127.0.0.1'], { cwd, env, until: /API http/ });
    const sample = await serve();
    await sample.kill?.();
    expect(sample.code).toBe(78);
    expect(sample.stderr).toContain('  security.jwtSecret: is a published example;');
    const patterned = await serve({ VELLUM_JWT_SECRET: 'a'.repeat(36) });
    await patterned.kill?.();
    expect(patterned.code).toBe(78);
    expect(patterned.stderr).toContain('  VELLUM_JWT_SECRET: too few distinct characters');
  });

  it('starts on SQLite under ./data, prints a claim URL, serves the API and stops on SIGTERM', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
    writeFileSync(
      join(cwd, 'vellum.config.json'),
      JSON.stringify({ schemas: [{ name: 'post', title: 'Post', fields: [{ name: 'title', type: 'string' }] }] }),
    );
    const res = await run(['serve', '--port', '0', '--host', '127.0.0.1'], { cwd, until: /claim\?token=\w+/ });
    expect(res.kill).toBeDefined();
    const base = /API (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(res.stdout)?.[1];
    expect(base).toBeTruthy();
    const schemas = (await (await fetch(`${base}/api/config/schemas`)).json()) as { data: Array<{ name: string }> };
    expect(schemas.data[0].name).toBe('post');
    expect(existsSync(join(cwd, 'data', 'vellum.db'))).toBe(true);
    // Where the data is, relative to the working directory; a config was found, so nothing on stderr about it.
    expect(res.stdout).toContain(`Data: ${join(cwd, 'data', 'vellum.db')} (SQLite)\n`);
    expect(res.stderr).not.toContain('no vellum.config');
    expect(await res.kill!()).toBe(0);
  });

  it('a database that refuses connections stops start-up with exit 1, naming what failed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
    // Port 1 on loopback: nothing listens there, so the connect is refused at once.
    const res = await run(['serve'], { cwd, env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vellum' } });
    expect(res.code).toBe(1);
    // No config in that folder: one line says so, then the failure.
    const [noConfig, failure] = res.stderr.trimEnd().split('\n');
    expect(noConfig).toBe(
      `vellum: no vellum.config.{json,js,mjs,ts} in ${cwd}: starting with no document types (npm create vellum makes a project; --config names a file elsewhere)`,
    );
    expect(failure).toMatch(/^vellum: cannot start: .*not reachable.*\(connect ECONNREFUSED 127\.0\.0\.1:1\)$/);
  });

  it('unknown commands exit 64 with one line pointing to the help', async () => {
    const res = await run(['frobnicate'], { cwd: tmpdir() });
    expect(res.code).toBe(64);
    expect(res.stderr).toBe('vellum: unknown command "frobnicate" (see vellum --help)\n');
  });

  it('a port already in use exits 69 and names the port', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const { port } = blocker.address() as AddressInfo;
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
      writeFileSync(
        join(cwd, 'vellum.config.json'),
        JSON.stringify({ schemas: [{ name: 'post', fields: [{ name: 'title', type: 'string' }] }] }),
      );
      const res = await run(['serve', '--port', String(port), '--host', '127.0.0.1'], { cwd });
      expect(res.code, res.stderr).toBe(69);
      expect(res.stderr).toContain(`port ${port}`);
      expect(res.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });
});

describe('vellum --version', () => {
  const version = (JSON.parse(readFileSync(resolve(__dirname, '../../packages/cli/package.json'), 'utf8')) as { version: string }).version;

  it.each(['--version', '-v'])('%s prints the version', async (flag) => {
    const res = await run([flag], { cwd: tmpdir() });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${version}\n`);
  });
});
