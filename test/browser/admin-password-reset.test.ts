import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { copyUnsentLink, setPasswordByLink } from '../helpers/password-links.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// Password resets on an instance without mail (docs/studio.md, "Pages"): an admin's "Send password
// reset" shows the link to copy and says mail is not configured; the forgot-password page does
// not claim a mail is on its way, and sends the user to an administrator.
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

describe('password resets without mail', () => {
  // First, while no page of the profile has signed in (the sign-in page would move a signed-in visitor on).
  it('the forgot-password page says mail is not configured and to ask an administrator, never that a mail is on its way', async () => {
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const message = page.getByRole('status').filter({ hasText: 'Mail is not configured on this instance' });
    await message.waitFor();
    expect(await message.textContent()).toMatch(/Ask an administrator for a reset link/);
    expect(await page.getByText(/on its way/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send me a link' }).count()).toBe(0);
    await expectAccessible(page, 'forgot-password page without mail');
    await screenshot(page, 'reset-password-without-mail');
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
  });

  it('an admin sends a password reset: the link is shown with a copy button and "Mail is not configured"; it sets the password', async () => {
    await createUser(b.t, admin, { username: 'forgetful', password: 'old-password-1', role: 'author' });
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.origin });
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    const row = page.getByRole('row', { name: /forgetful@example\.com/ });
    await row.getByRole('button', { name: 'Send password reset to forgetful' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send forgetful a password reset?' });
    await confirm.getByText('Mail is not configured').waitFor();
    await expectAccessible(page, 'password reset confirmation');
    await confirm.getByRole('button', { name: 'Send password reset' }).click();

    const panel = page.getByRole('region', { name: 'Password reset link for forgetful@example.com' });
    await panel.getByText('Mail is not configured').waitFor();
    const link = await panel.getByLabel('Password reset link').inputValue();
    expect(link).toMatch(new RegExp(`^${b.origin}/studio/reset-password\\?token=[0-9A-Za-z]{43}$`));
    expect(await page.getByText(/Reset link sent/).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'no mail was sent' }).waitFor();
    await copyUnsentLink(page, panel, { label: 'Password reset link', link, shot: 'admin-password-reset-link' });

    // The link is a reset link: it sets a new password.
    await setPasswordByLink(b, link, 'reset', 'new-password-by-link');
    expect(await b.t.login('forgetful', 'new-password-by-link')).toBeTruthy();
    await page.close();
  });
});
