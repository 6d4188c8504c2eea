import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// Signing in to the studio in Chromium (docs/studio.md, "Signing in").
let b: BrowserApp;
let page: Page;

beforeAll(async () => {
  b = await startBrowserApp({ schemas: TEST_SCHEMAS });
});
afterAll(() => b?.close());

describe('studio sign-in', () => {
  it('signs in with a password, lands on the page asked for, shows the navigation from /config/structure', async () => {
    page = await b.newPage();
    await page.goto(`${b.origin}/studio/account`);
    await expect.poll(() => page.url()).toContain('/studio/sign-in?next=%2Faccount');
    await expectAccessible(page, 'sign-in page');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/account`);
    const nav = page.getByRole('navigation', { name: 'Studio' });
    await nav.getByRole('link', { name: 'Media' }).waitFor();
    await expect(nav.getByRole('link').count()).resolves.toBeGreaterThan(3);
    await page.getByRole('link', { name: 'Vellum Studio' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await expectAccessible(page, 'home page');
    await screenshot(page, 'home');
  });

  it('a wrong password is refused with a message and stays on the sign-in page', async () => {
    const p = await b.newPage();
    await signIn(p, b.origin, ADMIN.username, 'not-the-password');
    await p.getByRole('alert').waitFor();
    expect(await p.getByRole('alert').textContent()).toMatch(/invalid|incorrect|wrong/i);
    expect(p.url()).toContain('/studio/sign-in');
    await p.close();
  });
});
