import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// An invitation on an instance without mail (docs/studio.md, "Pages"): the studio does not say it
// was sent; it says mail is not configured and shows the link the server answered, to copy.
let b: BrowserApp;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app) => (b = app));

describe('inviting without mail', () => {
  it('shows the invitation link with a copy button and "Mail is not configured"; the link activates the account', async () => {
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.origin });
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    await page.getByRole('button', { name: 'Invite' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a user' });
    await invite.getByText('Mail is not configured').waitFor();
    await invite.getByLabel('Username').fill('unmailed');
    await invite.getByLabel('Email').fill('unmailed@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();

    const panel = page.getByRole('region', { name: 'Invitation link for unmailed@example.com' });
    await panel.getByText('Mail is not configured').waitFor();
    const link = await panel.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${b.origin}/studio/accept-invite\\?token=[0-9A-Za-z]{43}$`));
    expect(await page.getByText('Invitation sent').count()).toBe(0);
    await panel.getByRole('button', { name: 'Copy' }).click();
    await panel.getByRole('button', { name: 'Copied' }).waitFor();
    // A string: it runs in the page (this file has no DOM types).
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    await expectAccessible(page, 'invitation link');
    await screenshot(page, 'admin-invite-link');
    await panel.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('Invitation link').count()).toBe(0);

    // The link is the invitation: it sets the password and activates the account.
    const invitee = await b.newPage();
    await invitee.goto(link);
    await invitee.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await invitee.getByLabel('New password', { exact: true }).fill('unmailed-password-1');
    await invitee.getByLabel('Repeat the password').fill('unmailed-password-1');
    await invitee.getByRole('button', { name: 'Set my password' }).click();
    await invitee.getByText('Your account is ready.').waitFor();
    expect(await b.t.login('unmailed', 'unmailed-password-1')).toBeTruthy();
    await invitee.close();
    await page.close();
  });
});
