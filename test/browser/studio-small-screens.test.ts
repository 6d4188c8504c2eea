import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { openStudioPage, seedStudioPages, STUDIO_PAGES, type SeededPages } from '../helpers/studio-pages.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The design system and small screens (docs/studio.md, "Design system" and "Small screens"): at
// 390 px no main page scrolls sideways, the edit page puts its form before the side panel, the
// search opens from an icon and the navigation from a menu button; axe finds nothing serious in
// the light and dark schemes at 390 and 1440 px.
let b: BrowserApp;
let admin: string;
let seeded: SeededPages;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));
beforeAll(async () => {
  seeded = await seedStudioPages(b, admin);
});

async function signedIn(size = PHONE): Promise<Page> {
  const page = await b.newPage();
  await page.setViewportSize(size);
  await signIn(page, b.origin, ADMIN.username, ADMIN.password);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

/** How far the page reaches past the window's right edge, in CSS pixels (0: no sideways scroll). */
// Strings: they run in the page, where `document` exists (this file has no DOM types).
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
/** The focused element's accessible name, as its `aria-label` or its label's text. */
const focusedName = (page: Page) =>
  page.evaluate(`document.activeElement.getAttribute('aria-label') ?? document.activeElement.labels?.[0]?.textContent`);

// Long tests: each opens several pages, and axe runs on each.
describe('studio on small screens', { timeout: 90_000 }, () => {
  it('no main page scrolls sideways at 390 px', async () => {
    const page = await signedIn();
    for (const name of STUDIO_PAGES.filter((n) => n !== 'sign-in')) {
      await openStudioPage(page, b.origin, seeded.paths[name]);
      expect(await overflow(page), name).toBeLessThanOrEqual(0);
    }
    const signedOut = await b.newPage();
    await signedOut.setViewportSize(PHONE);
    await openStudioPage(signedOut, b.origin, seeded.paths['sign-in']);
    expect(await overflow(signedOut), 'sign-in').toBeLessThanOrEqual(0);
    await page.close();
    await signedOut.close();
  });

  it('the edit page shows the form before the side panel, and the long slug and rich text stay inside', async () => {
    const page = await signedIn();
    await openStudioPage(page, b.origin, seeded.paths.edit);
    const title = (await page.getByLabel('Title *').boundingBox())!;
    const side = (await page.getByRole('complementary', { name: 'Document' }).boundingBox())!;
    expect(title.y + title.height).toBeLessThan(side.y);
    // The form's fields are as wide as the window allows, no wider.
    for (const field of [page.getByLabel('Slug'), page.getByRole('textbox', { name: 'Content' })]) {
      const box = (await field.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await screenshot(page, 'small-screens-edit');
    await page.close();
  });

  it('the search opens from its icon, finds a document, and Escape closes it with focus back on the icon', async () => {
    const page = await signedIn();
    const search = page.getByRole('searchbox', { name: 'Search documents' });
    expect(await search.isVisible()).toBe(false);
    const icon = page.getByRole('button', { name: 'Search', exact: true });
    await icon.click();
    await expect.poll(() => focusedName(page)).toBe('Search documents');
    // Across the header: the whole width but its padding.
    const box = (await search.boundingBox())!;
    expect(box.width).toBeGreaterThan(PHONE.width * 0.6);
    await expectAccessible(page, 'search open, 390 px');
    await page.keyboard.press('Escape');
    expect(await search.isVisible()).toBe(false);
    await expect.poll(() => focusedName(page)).toBe('Search');
    expect(await icon.getAttribute('aria-expanded')).toBe('false');

    await icon.click();
    await search.fill('analytical');
    await page
      .getByRole('region', { name: 'Search results' })
      .getByRole('link', { name: /Notes on the analytical engine/ })
      .click();
    await page.getByRole('heading', { level: 1, name: /Notes on the analytical engine/ }).waitFor();
    expect(await search.isVisible()).toBe(false);
    await page.close();
  });

  it('the navigation opens from the menu button and closes on the page it leads to, or on Escape', async () => {
    const page = await signedIn();
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Studio' });
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    await nav.waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'navigation open, 390 px');
    await screenshot(page, 'small-screens-menu');
    await nav.getByRole('link', { name: 'Media' }).click();
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await nav.waitFor({ state: 'hidden' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await nav.getByRole('link', { name: 'Users' }).focus();
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    await expect.poll(() => focusedName(page)).toBe('Menu');
    await page.close();
  });

  it('a success shows as a toast that can be dismissed', async () => {
    const page = await signedIn(DESKTOP);
    await openStudioPage(page, b.origin, seeded.paths.users);
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Username').fill('toasted');
    await dialog.getByLabel('Email').fill('toasted@example.com');
    await dialog.getByLabel('Password').fill('toasted-password-1');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'User toasted created.' });
    await toast.waitFor();
    await expectAccessible(page, 'toast');
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await toast.waitFor({ state: 'detached' });
    await page.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const size of [PHONE, DESKTOP]) {
      it(`every main page is accessible, ${colorScheme}, ${size.width} px`, { timeout: 180_000 }, async () => {
        const page = await signedIn(size);
        await page.emulateMedia({ colorScheme });
        for (const name of STUDIO_PAGES.filter((n) => n !== 'sign-in')) {
          await openStudioPage(page, b.origin, seeded.paths[name]);
          await expectAccessible(page, `${name}, ${colorScheme}, ${size.width} px`);
        }
        const signedOut = await b.newPage();
        await signedOut.setViewportSize(size);
        await signedOut.emulateMedia({ colorScheme });
        await openStudioPage(signedOut, b.origin, seeded.paths['sign-in']);
        await expectAccessible(signedOut, `sign-in, ${colorScheme}, ${size.width} px`);
        await page.close();
        await signedOut.close();
      });
    }
  }
});
