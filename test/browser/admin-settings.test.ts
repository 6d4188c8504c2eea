import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// Instance settings and the audit log (docs/studio.md, "Pages").
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const settings = async () => (await b.t.request({ method: 'GET', url: '/api/config/settings', token: admin })).json().data;

describe('studio settings and audit log', () => {
  it('toggles mfaRequired and renames the site', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/settings');
    const mfa = page.getByRole('checkbox', { name: /mfaRequired/ });
    await mfa.waitFor();
    expect(await mfa.isChecked()).toBe(false);
    await mfa.check();
    await page.getByLabel('Site name').fill('Acme CMS');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(await settings()).toMatchObject({ mfaRequired: true, siteName: 'Acme CMS' });
    await expectAccessible(page, 'settings page');
    await screenshot(page, 'admin-settings');

    await page.reload();
    await mfa.waitFor();
    expect(await mfa.isChecked()).toBe(true);
    await mfa.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect((await settings()).mfaRequired).toBe(false);
    await page.close();
  });

  it('the audit log lists records, filtered by type and date', async () => {
    const put = await b.t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { defaultLocale: 'en' } });
    expect(put.statusCode, put.body).toBe(200);
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('cell', { name: 'login', exact: true }).first().waitFor();
    await page.getByLabel('Event type').selectOption('settingsUpdate');
    await expect.poll(() => page.getByRole('cell', { name: 'login', exact: true }).count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'settingsUpdate', exact: true }).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'audit page');
    await screenshot(page, 'admin-audit');
    await page.getByLabel('Since').fill('2999-01-01');
    await page.getByText('No records match.').waitFor();
    await page.close();
  });

  it('the settings and audit pages tell a user without access so', async () => {
    await createUser(b.t, admin, { username: 'ed', password: 'browser-password-1', role: 'editor' });
    const page = await b.newPage();
    await signIn(page, b.origin, 'ed', 'browser-password-1', '/studio/admin/settings');
    await page.getByText('it needs the settings:read permission').waitFor();
    await page.goto(`${b.origin}/studio/admin/audit`);
    await page.getByText('it needs the admin role').waitFor();
    await screenshot(page, 'admin-audit-not-allowed');
    await page.close();
  });
});
