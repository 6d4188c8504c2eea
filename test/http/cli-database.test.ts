import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../packages/server/src/config/roles.js';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * `vellum migrate` and `vellum user …` work on the configured database itself, with no server:
 * here on a fresh database of the suite's dialect, then checked through an app on that database.
 */
describe('vellum migrate and vellum user on a fresh database', () => {
  let db: TestDatabase;
  let cwd: string;
  let app: App | undefined;
  const CONFIG = { security: { bcryptRounds: 4, passwordPolicy: { minLength: 12 } } };

  const cli = (args: string[], input?: string) => runCli(args, { cwd, env: { DATABASE_URL: db.url }, input });
  const login = (username: string, password: string) =>
    app!.server.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

  beforeAll(async () => {
    assertCliBuilt();
    db = await createTestDatabase();
    cwd = mkdtempSync(join(tmpdir(), 'vellum-cli-db-'));
    writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify(CONFIG));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('migrate applies every migration once and names them; a second run finds the database up to date', async () => {
    const first = await cli(['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied 001-initial\n/);
    expect(first.stdout).toMatch(/\n\d+ migrations applied\n$/);
    const again = await cli(['migrate']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('the database is up to date\n');
    expect(JSON.parse((await cli(['migrate', '--json'])).stdout)).toEqual({ applied: [] });
  });

  it('user create inserts a user whose password (from stdin) signs in, with the role asked for', async () => {
    const run = await cli(
      ['user', 'create', '--username', 'ada', '--email', 'Ada@Example.com', '--role', 'admin', '--password-stdin'],
      'ada-password-123\n',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^created user ada \(admin, id [\w-]+\)\n$/);
    expect(run.stdout + run.stderr).not.toContain('ada-password-123');

    app = await createApp(resolveConfig({ database: { url: db.url }, ...CONFIG }, {}));
    const res = await login('ada', 'ada-password-123');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({ username: 'ada', email: 'ada@example.com', role: 'admin' });
  });

  it('user create refuses what the API refuses: the password policy (422), a taken name (409), an unknown role; exit 1, one line', async () => {
    const weak = await cli(['user', 'create', '--username', 'bob', '--email', 'bob@example.com', '--password-stdin'], 'short\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toBe('vellum: 422 VALIDATION_ERROR: Validation failed (password: must be at least 12 characters)\n');
    const taken = await cli(
      ['user', 'create', '--username', 'ada', '--email', 'other@example.com', '--password-stdin'],
      'long-enough-pass-1\n',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^vellum: 409 CONFLICT: .*\(username: is taken\)\n$/);
    const role = await cli(
      ['user', 'create', '--username', 'cy', '--email', 'cy@example.com', '--role', 'emperor', '--password-stdin'],
      'long-enough-pass-1\n',
    );
    expect(role.code).toBe(1);
    expect(role.stderr).toMatch(/^vellum: 422 VALIDATION_ERROR: .*role: must be one of /);
    expect((await login('bob', 'short')).statusCode).toBe(401);
  });

  it('user create --json prints the user made; its help names the roles the server has', async () => {
    const run = await cli(
      ['user', 'create', '--username', 'eve', '--email', 'eve@example.com', '--role', 'writer', '--password-stdin', '--json'],
      'eve-password-123\n',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: expect.any(String), username: 'eve', role: 'writer' });
    const help = await cli(['user', 'create', '--help']);
    expect(help.stdout).toMatch(new RegExp(`${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)} \\(default editor\\)`));
  });

  it('user create without --username/--email, or without a password on stdin off a terminal, is a usage error (64)', async () => {
    expect((await cli(['user', 'create', '--email', 'x@example.com', '--password-stdin'], 'long-enough-pass-1\n')).code).toBe(64);
    const noPassword = await cli(['user', 'create', '--username', 'dee', '--email', 'dee@example.com']);
    expect(noPassword.code).toBe(64);
    expect(noPassword.stderr).toBe('vellum: give the password on stdin with --password-stdin (or run this on a terminal)\n');
  });

  it('user set-password changes the password and ends the sessions the old one opened', async () => {
    const before = await login('ada', 'ada-password-123');
    const { token, refreshToken } = before.json().data as { token: string; refreshToken: string };
    expect(
      (await app!.server.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(200);

    const run = await cli(['user', 'set-password', 'ada', '--password-stdin'], 'a-brand-new-pass-9\n');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('password of ada set; its sessions have ended\n');

    expect((await login('ada', 'ada-password-123')).statusCode).toBe(401);
    expect((await login('ada', 'a-brand-new-pass-9')).statusCode).toBe(200);
    const refresh = await app!.server.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expect(refresh.statusCode).toBe(401);
    expect(
      (await app!.server.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(401);
  });

  it('user set-password applies the policy and names an unknown user', async () => {
    const weak = await cli(['user', 'set-password', 'ada', '--password-stdin'], 'short\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/^vellum: 422 VALIDATION_ERROR: .*password: must be at least 12 characters/);
    const nobody = await cli(['user', 'set-password', 'nobody', '--password-stdin'], 'long-enough-pass-1\n');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toBe('vellum: 404 NOT_FOUND: No user named nobody\n');
  });

  it('a bad configuration is one line and exit 78', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-cli-badconf-'));
    writeFileSync(join(dir, 'vellum.config.json'), JSON.stringify({ security: { passwordPolicy: { minLength: 0 } } }));
    const run = await runCli(['migrate'], { cwd: dir, env: { DATABASE_URL: db.url } });
    rmSync(dir, { recursive: true, force: true });
    expect(run.code).toBe(78);
    expect(run.stderr).toBe('vellum: the configuration has problems: security.passwordPolicy.minLength: expected integer ≥ 1\n');
  });
});
