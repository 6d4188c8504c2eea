import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { setPasswordByLink } from '../helpers/password-links.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { useBrowserApp } from '../helpers/use-browser-app.js';

// The pages the mailed links and the identity provider send people to (docs/studio.md, "Pages"):
// /studio/reset-password, /studio/accept-invite, /studio/auth/idp/callback.
const mail = useMailCatcher();
const idp = useOidcProvider();
let b: BrowserApp;
let admin: string;

useBrowserApp(
  (origin) => ({
    ...idp.config({ redirectUri: `${origin}/studio/auth/idp/callback`, autoCreateUsers: true, name: 'Acme SSO' }),
    mail: { smtpUrl: mail.url, from: 'vellum@example.com' },
  }),
  (app, token) => ((b = app), (admin = token)),
);

/** The studio link in a mail (`<origin>/studio/<page>?token=…`). */
const linkIn = (text: string, page: string) => new RegExp(`(http://localhost:\\d+/studio/${page}\\?token=[A-Za-z0-9]+)`).exec(text)![1];

describe('mailed links and the identity provider', () => {
  it('password reset: the link is asked for on the page, the mailed link chooses a new password, which signs in', async () => {
    await createUser(b.t, admin, { username: 'forgetful', password: 'old-password-1', role: 'editor' });
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email address').fill('forgetful@example.com');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('a link to choose a new password is on its way').waitFor();
    const link = linkIn((await mail.waitFor('forgetful@example.com')).decoded, 'reset-password');
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Repeat the password').fill('new-password-1');
    await expectAccessible(page, 'reset password page');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Change my password' }).click();
    await page.getByText('Your password was changed.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username or email').fill('forgetful');
    await page.getByLabel('Password').fill('new-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    // The link works once.
    await page.goto(link);
    await page.getByText('This link is no longer valid').waitFor();
    await page.close();
  });

  it('an invitation: the mailed link sets the password and activates the account', async () => {
    const invited = await b.t.request({
      method: 'POST',
      url: '/api/users/invite',
      token: admin,
      payload: { username: 'newcomer', email: 'newcomer@example.com', role: 'writer' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const link = linkIn((await mail.waitFor('newcomer@example.com')).decoded, 'accept-invite');
    await setPasswordByLink(b, link, 'invite', 'newcomer-password-1');
    const page = await b.newPage();
    await signIn(page, b.origin, 'newcomer', 'newcomer-password-1');
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.close();
  });

  it('a second factor by email: the login mails the code (the only method), and the mailed code signs in', async () => {
    await createUser(b.t, admin, { username: 'mailer', password: 'mailer-password-1', role: 'editor' });
    const session = await b.t.login('mailer', 'mailer-password-1');
    const codeIn = (text: string) => /is (\d{6})\./.exec(text)![1];
    expect((await b.t.request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session })).statusCode).toBe(200);
    const setupCode = codeIn((await mail.waitFor('mailer@example.com')).decoded);
    const on = await b.t.request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: session, payload: { code: setupCode } });
    expect(on.statusCode, on.body).toBe(200);

    const page = await b.newPage();
    await signIn(page, b.origin, 'mailer', 'mailer-password-1');
    await page.getByText('A code was sent to your email address.').waitFor();
    await page.getByRole('button', { name: 'Send the code again' }).waitFor();
    const loginCode = codeIn((await mail.waitFor('mailer@example.com', 2)).decoded);
    await page.getByRole('textbox', { name: 'Code from the email' }).fill(loginCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.close();
  });

  it('the identity provider button signs in through the provider and its callback page', async () => {
    idp.state.claims = { sub: 'sso-user-1', email: 'sso@idp.example', email_verified: true, preferred_username: 'ssouser' };
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/sign-in`);
    await page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(page.url()).toMatch(/\/studio\/?$/);
    expect(await page.getByRole('button', { name: /Account/ }).textContent()).toContain('ssouser');
    await page.close();
  });
});
