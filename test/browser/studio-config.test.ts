import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// What the studio reads from GET /config/studio (docs/studio.md, "The shell").
let b: BrowserApp;
let admin: string;

beforeAll(async () => {
  b = await startBrowserApp({ schemas: TEST_SCHEMAS, security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } } });
  admin = await b.t.login(ADMIN.username, ADMIN.password);
});
afterAll(() => b?.close());

const setSiteName = async (siteName: string) => {
  const res = await b.t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { siteName } });
  expect(res.statusCode, res.body).toBe(200);
};

describe('the site name in the studio', () => {
  it('the header and the tab title show the site name set through the API', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/');
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Vellum Studio' }).waitFor();

    await setSiteName('Harbour Gazette');
    await page.reload();
    await banner.getByRole('link', { name: 'Harbour Gazette Studio' }).waitFor();
    await expect.poll(() => page.title()).toContain('Harbour Gazette');
    await expectAccessible(page, 'header with the site name');
    await screenshot(page, 'studio-site-name');
    await page.close();
  });

  it('saving the settings page renames the header without a reload', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/settings');
    await page.getByLabel('Site name').fill('Quayside Weekly');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Quayside Weekly Studio' }).waitFor();
    await expect.poll(() => page.title()).toBe('Settings · Quayside Weekly Studio');
    await page.close();
  });
});
