import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { signIn, type BrowserApp } from '../helpers/browser.js';
import { copyUnsentLink, setPasswordByLink } from '../helpers/password-links.js';
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
    await copyUnsentLink(page, panel, { label: 'Invitation link', link, shot: 'admin-invite-link' });

    // The link is the invitation: it sets the password and activates the account.
    await setPasswordByLink(b, link, 'invite', 'unmailed-password-1');
    expect(await b.t.login('unmailed', 'unmailed-password-1')).toBeTruthy();
    await page.close();
  });
});
