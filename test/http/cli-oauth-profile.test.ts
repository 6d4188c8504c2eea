import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials, saveProfile } from '../../packages/cli/src/profiles/credentials.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { deviceTokens, form } from '../helpers/oauth2.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * A profile holding an OAuth login (what `vellum login` will store) against the real
 * authorization server: an expired access token is refreshed with the rotating refresh token
 * (docs/oauth2.md, "Refresh and revocation") before the command runs, once across processes.
 */
describe('vellum with an OAuth profile', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let env: Record<string, string>;
  const past = '2020-01-01T00:00:00.000Z';

  const storeLogin = (tokens: { access_token: string; refresh_token: string }, expiresAt: string) =>
    saveProfile(
      'me',
      {
        url: baseUrl,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt,
        clientId: 'service-cli',
        tokenType: 'oauth',
      },
      env,
    );
  const refreshWith = (refreshToken: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'service-cli' }),
    });

  beforeAll(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'vellum-cli-oauth-'));
    env = { VELLUM_CONFIG_DIR: join(dir, 'cfg') };
    t = await startTestApp({ schemas: TEST_SCHEMAS, oauth2: { enabled: true } });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
  });

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an expired access token is refreshed first; the rotated pair is stored and the old refresh token is spent', async () => {
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const first = await deviceTokens(t, admin, 'content:read content:write');
    storeLogin(first, past);

    const run = await runCli(['docs', 'create', 'post', '--data', '{"title":"Via OAuth"}', '--format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ title: 'Via OAuth' });

    const stored = readCredentials(env).profiles.me;
    expect(stored.refreshToken).not.toBe(first.refresh_token);
    expect(stored.accessToken).not.toBe(first.access_token);
    expect(Date.parse(stored.expiresAt!)).toBeGreaterThan(Date.now());
    expect((await refreshWith(first.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('three processes finding the token expired at once refresh it once: all succeed and the login survives', async () => {
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const tokens = await deviceTokens(t, admin, 'content:read');
    storeLogin(tokens, past);
    const runs = await Promise.all([1, 2, 3].map(() => runCli(['docs', 'list', 'post', '--format', 'ndjson'], { env })));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    // A second spend of one refresh token would have revoked the grant: the stored pair still works.
    const stored = readCredentials(env).profiles.me;
    const res = await t.request({ method: 'GET', url: '/api/documents/post', token: stored.accessToken });
    expect(res.statusCode).toBe(200);
    expect((await refreshWith(stored.refreshToken!)).statusCode).toBe(200);
  });

  it('a revoked login is forgotten and the command asks for vellum login (exit 77)', async () => {
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const tokens = await deviceTokens(t, admin, 'content:read');
    await t.request({ method: 'POST', url: '/api/auth/revoke', ...form({ token: tokens.refresh_token, client_id: 'service-cli' }) });
    storeLogin(tokens, past);
    const run = await runCli(['docs', 'list', 'post'], { env });
    expect(run.code).toBe(77);
    expect(run.stderr).toBe('vellum: the login of profile "me" has ended (revoked or expired): run vellum login\n');
    expect(readCredentials(env).profiles.me).toEqual({ url: baseUrl });
  });
});
