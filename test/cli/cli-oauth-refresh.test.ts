import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsPath, readCredentials, saveProfile } from '../../packages/cli/src/profiles/credentials.js';
import { freshOAuthToken } from '../../packages/cli/src/profiles/refresh-oauth.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';

/**
 * A stand-in for the token endpoint (docs/api.md, OAuth refresh with rotation): each refresh
 * token works once; a reused one is `invalid_grant`. The documents route checks the bearer.
 */
function fakeServer() {
  const spent = new Set<string>();
  const calls: Array<Record<string, string>> = [];
  let n = 1;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/auth/token' && req.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(body));
        calls.push(form);
        if (
          form.grant_type !== 'refresh_token' ||
          form.client_id !== 'service-cli' ||
          spent.has(form.refresh_token) ||
          form.refresh_token === 'revoked'
        ) {
          res.statusCode = 400;
          return res.end(JSON.stringify({ error: 'invalid_grant' }));
        }
        spent.add(form.refresh_token);
        n++;
        return res.end(
          JSON.stringify({
            access_token: `at-${n}`,
            token_type: 'Bearer',
            expires_in: 900,
            refresh_token: `rt-${n}`,
            scope: 'content:read',
          }),
        );
      }
      if (req.url?.startsWith('/api/documents/post')) {
        if (req.headers.authorization !== `Bearer at-${n}`) {
          res.statusCode = 401;
          return res.end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'Token expired' } }));
        }
        return res.end(JSON.stringify({ data: [], meta: { total: 0, limit: 20, offset: 0 } }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  const reset = () => {
    spent.clear();
    calls.length = 0;
    n = 1;
  };
  return { server, calls, reset };
}

describe('OAuth profiles: an expired access token is refreshed once, under a lock', () => {
  let fake: ReturnType<typeof fakeServer>;
  let url: string;
  let dir: string;
  let env: Record<string, string>;
  const past = '2020-01-01T00:00:00.000Z';
  const oauthProfile = (fields: Record<string, string> = {}) =>
    saveProfile(
      'me',
      {
        url,
        accessToken: 'at-1',
        refreshToken: 'rt-1',
        expiresAt: past,
        clientId: 'service-cli',
        tokenType: 'oauth',
        user: { id: 'u1', username: 'ada' },
        ...fields,
      },
      env,
    );

  beforeAll(async () => {
    fake = fakeServer();
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((r) => (fake.server as Server).close(() => r())));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-oauth-'));
    env = { VELLUM_CONFIG_DIR: join(dir, 'cfg') };
    fake.reset();
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('a token that has not expired is used as stored, with no request', async () => {
    oauthProfile({ expiresAt: new Date(Date.now() + 600_000).toISOString() });
    expect(await freshOAuthToken('me', env)).toBe('at-1');
    expect(fake.calls).toEqual([]);
  });

  it('an expired one is refreshed with the refresh token and client id; the rotated pair is stored with its expiry', async () => {
    oauthProfile();
    const before = Date.now();
    const token = await freshOAuthToken('me', env);
    expect(fake.calls).toEqual([{ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'service-cli' }]);
    const stored = readCredentials(env).profiles.me;
    expect(stored).toMatchObject({
      accessToken: token,
      refreshToken: token.replace('at-', 'rt-'),
      tokenType: 'oauth',
      user: { username: 'ada' },
    });
    expect(Date.parse(stored.expiresAt!)).toBeGreaterThanOrEqual(before + 900_000);
    expect(existsSync(`${credentialsPath(env)}.lock`)).toBe(false);
  });

  it('concurrent callers spend the refresh token once and share the new access token', async () => {
    oauthProfile();
    const tokens = await Promise.all([freshOAuthToken('me', env), freshOAuthToken('me', env), freshOAuthToken('me', env)]);
    expect(fake.calls).toHaveLength(1);
    expect(new Set(tokens).size).toBe(1);
  });

  it('a refused refresh token (invalid_grant) forgets the tokens and asks for a login, exit 77', async () => {
    oauthProfile({ refreshToken: 'revoked' });
    await expect(freshOAuthToken('me', env)).rejects.toMatchObject({ exitCode: 77, message: expect.stringContaining('run vellum login') });
    expect(readCredentials(env).profiles.me).toEqual({ url });
  });

  it('the CLI refreshes before calling the API (docs list with the profile alone)', async () => {
    assertCliBuilt();
    oauthProfile();
    const run = await runCli(['docs', 'list', 'post', '--format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0 } });
    expect(fake.calls).toHaveLength(1);
    expect(readCredentials(env).profiles.me).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-2' });
  });
});
