import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The studio's frame (docs/studio.md, "Pages"): keyboard use, the dark theme, tablet width.
let b: BrowserApp;

beforeAll(async () => {
  b = await startBrowserApp({ schemas: TEST_SCHEMAS });
});
afterAll(() => b?.close());

describe('studio shell', () => {
  it('the first Tab reaches the skip link, which moves focus to the page; the account menu opens from the keyboard', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('main');
    await page.getByRole('button', { name: /Account/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Account' }).waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu').count()).resolves.toBe(0);
    await page.close();
  });

  it('follows a dark system theme, with no serious accessibility violation (contrast included)', async () => {
    const page = await b.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, b.origin, ADMIN.username, ADMIN.password);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(22, 23, 26)');
    await expectAccessible(page, 'home page, dark');
    await screenshot(page, 'home-dark');
    await page.close();
  });

  it('at tablet width the navigation sits above the page and everything stays reachable', async () => {
    const page = await b.newPage();
    await page.setViewportSize({ width: 768, height: 1024 });
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/post');
    await page.getByRole('heading', { name: 'post' }).waitFor();
    const nav = await page.getByRole('navigation', { name: 'Studio' }).boundingBox();
    const main = await page.getByRole('main').boundingBox();
    expect(nav!.y + nav!.height).toBeLessThanOrEqual(main!.y + 1);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768);
    await expectAccessible(page, 'document list, tablet');
    await screenshot(page, 'tablet');
    await page.close();
  });
});
