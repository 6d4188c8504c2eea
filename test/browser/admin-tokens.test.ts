import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The API tokens page (docs/studio.md, "Pages"): create with the permission picker, the token
// shown once, revoke with a confirmation; the token is checked against the API each time.
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

describe('studio API tokens', () => {
  it('creates a token with the picked permissions, shows it once, and revoking it makes the API refuse it', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/tokens');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel('Name').fill('CI deploy');
    await page.getByRole('checkbox', { name: 'content:read' }).check();
    await page.getByRole('checkbox', { name: 'post:write' }).check();
    await page.getByLabel('Expires on (empty: never)').fill('2099-12-31');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByLabel('New API token');
    await secret.waitFor();
    const token = await secret.inputValue();
    expect(token).toMatch(/^vlm_/);
    const row = page.getByRole('row', { name: /CI deploy/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('content:read, post:write');
    await expectAccessible(page, 'API tokens page');
    await screenshot(page, 'admin-tokens');

    // The token works: it validates with exactly the picked permissions and expiry.
    const ok = await b.t.request({ method: 'POST', url: '/api/auth/validate', token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.permissions).toEqual(['content:read', 'post:write']);
    const stored = (await b.t.request({ method: 'GET', url: '/api/tokens', token: admin })).json().data;
    expect(stored).toHaveLength(1);
    expect(stored[0].expiresAt.slice(0, 4)).toBe('2099');

    // "Done" hides the token for good.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('New API token').count()).toBe(0);

    await row.getByRole('button', { name: 'Revoke CI deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “CI deploy”?' });
    await dialog.waitFor();
    await expectAccessible(page, 'revoke dialog');
    await screenshot(page, 'admin-tokens-revoke');
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('No API tokens yet.').waitFor();
    const refused = await b.t.request({ method: 'POST', url: '/api/auth/validate', token });
    expect(refused.statusCode).toBe(401);
    await page.close();
  });

  it('a user without tokens:read is told the page is not for them', async () => {
    await createUser(b.t, admin, { username: 'plainwriter', password: 'browser-password-1', role: 'writer' });
    const page = await b.newPage();
    await signIn(page, b.origin, 'plainwriter', 'browser-password-1', '/studio/admin/tokens');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('needs the tokens:read permission');
    await page.close();
  });

  it('a user with tokens:write can pick only permissions they hold; the server agrees', async () => {
    await createUser(b.t, admin, {
      username: 'tokenkeeper',
      password: 'browser-password-1',
      role: 'viewer',
      permissions: ['tokens:read', 'tokens:write'],
    });
    const page = await b.newPage();
    await signIn(page, b.origin, 'tokenkeeper', 'browser-password-1', '/studio/admin/tokens');
    await page.getByRole('heading', { name: 'New token' }).waitFor();
    // A viewer holds content:read (so post:read too), not content:write nor users:read.
    expect(await page.getByRole('checkbox', { name: 'content:read' }).isDisabled()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'post:read' }).isDisabled()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'content:write' }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'users:read' }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'post:*' }).isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Reader');
    await page.getByRole('checkbox', { name: 'post:read' }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('New API token').inputValue();
    const ok = await b.t.request({ method: 'POST', url: '/api/auth/validate', token });
    expect(ok.json().data.permissions).toEqual(['post:read']);
    // What the page disables, the server refuses.
    const bearer = await b.t.login('tokenkeeper', 'browser-password-1');
    const refused = await b.t.request({
      method: 'POST',
      url: '/api/tokens',
      token: bearer,
      payload: { name: 'x', permissions: ['content:write'] },
    });
    expect(refused.statusCode).toBe(403);
    await screenshot(page, 'admin-tokens-non-admin');
    await page.close();
  });
});
