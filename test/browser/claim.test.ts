import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, expectAccessible, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

// The first-boot claim page (docs/studio.md, "Pages"): an instance with no user and no
// configured admin prints `/studio/claim?token=…` at start-up; the page makes the first admin.
let b: BrowserApp;

beforeAll(async () => {
  b = await startBrowserApp({ security: { adminUser: undefined } });
});
afterAll(() => b?.close());

describe('first-boot claim', () => {
  it('the printed claim link creates the first administrator and signs them in; then the page says it is done', async () => {
    const token = b.t.app.claimToken;
    expect(token).toMatch(/^\w{32}$/);
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/claim?token=${token}`);
    await page.getByRole('heading', { name: 'Set up Vellum' }).waitFor();
    expect(await page.getByLabel('Setup token').inputValue()).toBe(token);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('owner-password-1');
    await expectAccessible(page, 'claim page');
    await screenshot(page, 'claim');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByRole('heading', { name: 'Welcome, owner' }).waitFor();
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Users' }).waitFor();
    const again = await b.newPage();
    await again.goto(`${b.origin}/studio/claim?token=${token}`);
    await again.getByText('This instance already has its administrator.').waitFor();
    await page.close();
    await again.close();
  });
});
