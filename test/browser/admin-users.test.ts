import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { enableTotp } from '../helpers/totp.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The users page (docs/studio.md, "Pages"): create a user, change their role and permissions,
// deactivate them, search and filter; the server's state is checked through the API.
let b: BrowserApp;
let admin: string;

// With mail, so an invitation is sent (without mail the page shows its link: admin-invite-link.test.ts).
const mail = useMailCatcher();
useBrowserApp(
  () => ({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS, mail: { smtpUrl: mail.url } }),
  (app, token) => ((b = app), (admin = token)),
);

const byUsername = async (username: string) =>
  (await b.t.request({ method: 'GET', url: `/api/users/by-username/${username}`, token: admin })).json().data;

describe('studio users', () => {
  it('creates a user, changes their role and permissions, deactivates and activates them', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('dialog', { name: 'New user' });
    await create.getByLabel('Username').fill('maria');
    await create.getByLabel('Email').fill('maria@example.com');
    await create.getByLabel('First name').fill('Maria');
    await create.getByLabel('Password').fill('a-long-password-1');
    await create.getByLabel('Role').selectOption('writer');
    await expectAccessible(page, 'new user dialog');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').filter({ hasText: 'User maria created.' }).waitFor();
    const row = page.getByRole('row', { name: /maria@example\.com/ });
    expect(await row.textContent()).toContain('writer');
    expect(await byUsername('maria')).toMatchObject({ role: 'writer', active: true, firstName: 'Maria' });

    await row.getByRole('button', { name: 'Edit maria' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit maria' });
    await edit.getByLabel('Role').selectOption('editor');
    await edit.getByRole('checkbox', { name: 'users:read' }).check();
    await screenshot(page, 'admin-users-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'maria saved.' }).waitFor();
    await expect.poll(() => row.textContent()).toContain('editor');
    expect(await byUsername('maria')).toMatchObject({ role: 'editor', permissions: ['users:read'] });

    await row.getByRole('button', { name: 'Deactivate maria' }).click();
    await page.getByRole('dialog', { name: 'Deactivate maria?' }).getByRole('button', { name: 'Deactivate' }).click();
    await row.getByRole('button', { name: 'Activate maria' }).waitFor();
    expect((await byUsername('maria')).active).toBe(false);
    await row.getByRole('button', { name: 'Activate maria' }).click();
    await row.getByRole('button', { name: 'Deactivate maria' }).waitFor();
    expect((await byUsername('maria')).active).toBe(true);
    await row.getByRole('button', { name: 'Deactivate maria' }).click();
    await page.getByRole('dialog', { name: 'Deactivate maria?' }).getByRole('button', { name: 'Deactivate' }).click();
    await row.getByRole('button', { name: 'Activate maria' }).waitFor();

    // Search and the role filter narrow the list.
    await page.getByLabel('Search users').fill('mari');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByLabel('Search users').fill('');
    await page.getByLabel('Filter by role').selectOption('admin');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('row', { name: new RegExp(ADMIN.username) }).waitFor();
    await page.getByLabel('Filter by role').selectOption('');
    await expectAccessible(page, 'users page');
    await screenshot(page, 'admin-users');
    // The dark theme follows the system, and stays readable.
    await page.emulateMedia({ colorScheme: 'dark' });
    await row.getByRole('button', { name: 'Edit maria' }).click();
    await expectAccessible(page, 'edit dialog, dark theme');
    await screenshot(page, 'admin-users-dark');
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('invites a user: inactive until the mailed link sets a password', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    await page.getByRole('button', { name: 'Invite' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a user' });
    await invite.getByLabel('Username').fill('invitee');
    await invite.getByLabel('Email').fill('invitee@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to invitee@example.com.' }).waitFor();
    expect(await byUsername('invitee')).toMatchObject({ active: false, role: 'viewer' });
    await page.close();
  });

  it('sends a password reset: "Reset link sent to <email>", and the mailed link sets a new password', async () => {
    await createUser(b.t, admin, { username: 'mailedreset', password: 'browser-password-1', role: 'author' });
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    const row = page.getByRole('row', { name: /mailedreset@example\.com/ });
    await row.getByRole('button', { name: 'Send password reset to mailedreset' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send mailedreset a password reset?' });
    await confirm.getByText('mailedreset@example.com gets a mail').waitFor();
    await confirm.getByRole('button', { name: 'Send password reset' }).click();
    await page.getByRole('status').filter({ hasText: 'Reset link sent to mailedreset@example.com.' }).waitFor();
    // The link went to the mailbox only: the page shows none.
    expect(await page.getByLabel('Password reset link').count()).toBe(0);
    const token = /\/studio\/reset-password\?token=([0-9A-Za-z]{43})/.exec((await mail.waitFor('mailedreset@example.com')).decoded)![1];
    expect(await page.content()).not.toContain(token);
    const reset = await b.t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'mailed-new-password' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await b.t.login('mailedreset', 'mailed-new-password')).toBeTruthy();
    await page.close();
  });

  it('an admin resets the MFA of a user', async () => {
    await createUser(b.t, admin, { username: 'lostphone', password: 'browser-password-1', role: 'author' });
    await enableTotp(b.t, await b.t.login('lostphone', 'browser-password-1'));
    expect((await byUsername('lostphone')).mfaEnabled).toBe(true);

    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/users');
    const row = page.getByRole('row', { name: /lostphone@example\.com/ });
    await row.getByRole('button', { name: 'Reset MFA of lostphone' }).click();
    await page.getByRole('dialog', { name: 'Reset MFA of lostphone?' }).getByRole('button', { name: 'Reset MFA' }).click();
    await page.getByRole('status').filter({ hasText: 'Second factors of lostphone removed.' }).waitFor();
    expect(await row.getByRole('button', { name: 'Reset MFA of lostphone' }).count()).toBe(0);
    expect((await byUsername('lostphone')).mfaEnabled).toBe(false);
    await page.close();
  });
});
