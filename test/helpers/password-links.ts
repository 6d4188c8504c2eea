import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectAccessible, screenshot, type BrowserApp } from './browser.js';

/**
 * The studio's panel for a link no mail carried (an invitation or a password reset without
 * `mail.smtpUrl`): Copy puts exactly the shown link on the clipboard (the page's context needs
 * the clipboard permissions), the panel passes the accessibility check, and Done removes it.
 */
export async function copyUnsentLink(page: Page, panel: Locator, opts: { label: string; link: string; shot: string }): Promise<void> {
  await panel.getByRole('button', { name: 'Copy' }).click();
  await panel.getByRole('button', { name: 'Copied' }).waitFor();
  // A string: it runs in the page (the tests have no DOM types).
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(opts.link);
  await expectAccessible(page, opts.label);
  await screenshot(page, opts.shot);
  await panel.getByRole('button', { name: 'Done' }).click();
  expect(await page.getByLabel(opts.label).count()).toBe(0);
}

/** The two password links' pages: what each is called, its button and what it says when done. */
const LINK_PAGES = {
  invite: { heading: 'Accept your invitation', button: 'Set my password', done: 'Your account is ready.' },
  reset: { heading: 'Choose a new password', button: 'Change my password', done: 'Your password was changed.' },
} as const;

/** Opens a password link in a page of its own and sets `password` through it, as its recipient would. */
export async function setPasswordByLink(b: BrowserApp, link: string, kind: keyof typeof LINK_PAGES, password: string): Promise<void> {
  const { heading, button, done } = LINK_PAGES[kind];
  const page = await b.newPage();
  await page.goto(link);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: button }).click();
  await page.getByText(done).waitFor();
  await page.close();
}
