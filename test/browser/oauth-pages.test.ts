import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkce } from '../../packages/client/src/authorization-code.js';
import { ADMIN } from '../helpers/app.js';
import { assertCliBuilt, CLI, type CliRun } from '../helpers/cli.js';
import { expectAccessible, screenshot, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { form } from '../helpers/oauth2.js';

// The studio's OAuth pages (docs/oauth2.md, "The approval page"): a real `vellum login` approved
// at /studio/auth/device, and the consent page of the authorization-code flow.
let b: BrowserApp;
let dir: string;
const REDIRECT = () => `${b.origin}/blog/callback`;

beforeAll(async () => {
  assertCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'vellum-studio-oauth-'));
  b = await startBrowserApp((origin) => ({
    oauth2: {
      enabled: true,
      clients: [
        {
          clientId: 'blog',
          name: 'Blog front end',
          grants: ['authorization_code', 'refresh_token'],
          redirectUris: [`${origin}/blog/callback`],
        },
      ],
    },
  }));
});
afterAll(async () => {
  await b?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `vellum login <origin> --scope …`: resolves with the verification URL it prints (with the code) and, later, the run. */
function cliLogin(scope: string): { url: Promise<string>; run: Promise<CliRun> } {
  let gotUrl: (u: string) => void;
  const url = new Promise<string>((resolve) => (gotUrl = resolve));
  const run = new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'login', b.origin, '--scope', scope], {
      env: { ...process.env, VELLUM_CONFIG_DIR: join(dir, 'cfg'), CI: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /\(or open (\S+\?code=[A-Z]{4}-[A-Z]{4})\)/.exec(stderr);
      if (m) gotUrl(m[1]);
    });
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c ?? -1, stdout, stderr }));
  });
  return { url, run };
}

describe('studio OAuth pages', () => {
  it('approves a device-flow login started by the real `vellum login`, with a scope unticked', async () => {
    const login = cliLogin('content:read content:write');
    const url = await login.url;
    expect(url).toMatch(new RegExp(`^${b.origin}/studio/auth/device\\?code=[A-Z]{4}-[A-Z]{4}$`));
    const page = await b.newPage();
    await page.goto(url);
    // Signed out: sign in first, then back to the device page with its code.
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Connect a device' }).waitFor();
    await page.getByText('Vellum CLI').waitFor();
    expect(page.url()).toBe(url);
    await expectAccessible(page, 'device approval page');
    await screenshot(page, 'oauth-device');
    await page.getByRole('checkbox', { name: /create and edit content/ }).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved. You can return to your device.').waitFor();
    const run = await login.run;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('as admin');
    expect(run.stdout).toContain('scopes: content:read)');
    await page.close();
  });

  it('a code typed in by hand, then denied: the CLI is told', async () => {
    const login = cliLogin('content:read');
    const code = /code=(.+)$/.exec(await login.url)![1];
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/sign-in?next=${encodeURIComponent('/auth/device')}`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Code shown by the device').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Denied.').waitFor();
    const run = await login.run;
    expect(run.code).not.toBe(0);
    await page.close();
  });

  it('consent for the authorization-code flow: approve, then the browser goes to the redirect URI with a code that redeems', async () => {
    const pkce = await createPkce();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'blog',
      redirect_uri: REDIRECT(),
      scope: 'content:read media:read',
      state: 'st4te',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    const page = await b.newPage();
    await page.goto(`${b.origin}/api/auth/authorize?${query}`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Authorize an application' }).waitFor();
    await page.getByText('Blog front end').waitFor();
    await expectAccessible(page, 'consent page');
    await screenshot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${b.origin}/blog/callback\\?`));
    const back = new URL(page.url()).searchParams;
    expect(back.get('state')).toBe('st4te');
    const token = await b.t.request({
      method: 'POST',
      url: '/api/auth/token',
      ...form({
        grant_type: 'authorization_code',
        code: back.get('code')!,
        redirect_uri: REDIRECT(),
        code_verifier: pkce.verifier,
        client_id: 'blog',
      }),
    });
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json().scope).toBe('content:read media:read');
    await page.close();
  });
});
