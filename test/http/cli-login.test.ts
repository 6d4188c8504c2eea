import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials } from '../../packages/cli/src/profiles/credentials.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, CLI, runCli, type CliRun } from '../helpers/cli.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * `vellum login`, `whoami`, `logout` (docs/cli.md, "Signing in") as a user runs them: the real
 * binary against a started server, the device flow of RFC 8628, the approval made through the API
 * as the studio's page would make it.
 */
let t: TestApp;
let origin: string;
let dir: string;
let env: Record<string, string>;
let admin: string;

/** Starts `vellum login args…`, waits for the code it prints, lets `decide` answer, and returns the run. */
function login(args: string[], decide: (userCode: string) => Promise<void>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'login', ...args], { env: { ...process.env, ...env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    let decided = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr)?.[1];
      if (code && !decided) {
        decided = true;
        decide(code).catch(reject);
      }
    });
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c ?? -1, stdout, stderr }));
  });
}

const decide = (action: 'approve' | 'deny', scopes?: string[]) => async (userCode: string) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/device/verify',
    token: admin,
    payload: { user_code: userCode, action, ...(scopes ? { scopes } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  assertCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'vellum-cli-login-'));
  env = { VELLUM_CONFIG_DIR: join(dir, 'cfg') };
  t = await startTestApp({ schemas: TEST_SCHEMAS, oauth2: { enabled: true } });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
  admin = await t.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('vellum login, whoami, logout', () => {
  it('login at the server address: prints the code, polls until approved, stores the login in a 0600 file', async () => {
    const run = await login([origin, '--scope', 'content:read content:write'], decide('approve'));
    expect(run.code, run.stderr).toBe(0);
    // The address is the issuer's (the test app's default `http://localhost:3000`), not the one the CLI reached.
    expect(run.stderr).toMatch(/^To sign in, open http:\/\/localhost:3000\/studio\/auth\/device and enter the code [A-Z]{4}-[A-Z]{4}\n/);
    expect(run.stderr).toMatch(/\(or open http:\/\/localhost:3000\/studio\/auth\/device\?code=[A-Z]{4}-[A-Z]{4}\)/);
    expect(run.stdout).toBe(`Signed in to ${origin}/api as admin (profile default, scopes: content:read content:write)\n`);
    const profile = readCredentials(env).profiles.default;
    expect(profile).toMatchObject({ url: `${origin}/api`, tokenType: 'oauth', clientId: 'service-cli', user: { username: 'admin' } });
    expect(profile.refreshToken).toMatch(/^vor_/);
    expect(statSync(join(dir, 'cfg', 'credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('whoami names the user and the scopes; the stored login reads documents and cannot do what its scopes leave out', async () => {
    const who = await runCli(['whoami'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toBe(`admin (admin), scopes: content:read content:write at ${origin}/api\n`);
    const list = await runCli(['docs', 'list', 'post', '--format', 'json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ data: [], meta: { total: 0 } });
    // An admin's login, but the OAuth token never carries the admin role: /users stays closed.
    const token = readCredentials(env).profiles.default.accessToken;
    const users = await t.request({ method: 'GET', url: '/api/users', token });
    expect(users.statusCode).toBe(403);
  });

  it('logout revokes the grant on the server: the stored token stops working at once, and whoami says so', async () => {
    const token = readCredentials(env).profiles.default.accessToken;
    const out = await runCli(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(`Signed out of ${origin}/api (profile default)\n`);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(401);
    expect(readCredentials(env).profiles.default).toEqual({ url: `${origin}/api` });
    const who = await runCli(['whoami'], { env });
    expect(who.code).toBe(77);
    expect(who.stderr).toBe('vellum: not signed in (profile default): run vellum login\n');
  });

  it('--json: login prints {url, profile, user, scopes} and never a token; logout {url, profile, signedOut}', async () => {
    const run = await login([origin, '--profile', 'json', '--scope', 'content:read content:publish', '--json'], decide('approve'));
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toEqual({
      url: `${origin}/api`,
      profile: 'json',
      user: { id: expect.any(String), username: 'admin', role: 'admin' },
      scopes: ['content:read', 'content:publish'],
    });
    expect(run.stdout).not.toContain(readCredentials(env).profiles.json.accessToken!);
    const out = await runCli(['logout', '--profile', 'json', '--json'], { env });
    expect(JSON.parse(out.stdout)).toEqual({ url: `${origin}/api`, profile: 'json', signedOut: true });
    const again = await runCli(['logout', '--profile', 'json', '--json'], { env });
    expect(JSON.parse(again.stdout)).toEqual({ url: `${origin}/api`, profile: 'json', signedOut: false });
  });

  it('a denied login exits 77 with one line and stores nothing', async () => {
    const run = await login([`${origin}/api`, '--profile', 'other'], decide('deny'));
    expect(run.code).toBe(77);
    expect(run.stderr.trim().split('\n').at(-1)).toBe('vellum: the sign-in was denied');
    expect(readCredentials(env).profiles.other).toBeUndefined();
  });

  it('login against a server without the authorization server: one line, exit 69', async () => {
    const off = await startTestApp();
    try {
      await off.app.server.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(off.app.server.server.address() as AddressInfo).port}`;
      const run = await runCli(['login', url], { env });
      expect(run.code).toBe(69);
      expect(run.stderr).toBe(`vellum: ${url} does not offer sign-in from the command line (oauth2.enabled is off)\n`);
    } finally {
      await off.close();
    }
  });
});
