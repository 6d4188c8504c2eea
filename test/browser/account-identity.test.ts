import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { useBrowserApp } from '../helpers/use-browser-app.js';

// The account page's parts that need a provider or a mailbox (docs/studio.md, "Pages"): linking
// the identity provider, email codes as a second factor.
const mail = useMailCatcher();
const idp = useOidcProvider();
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

useBrowserApp(
  (origin) => ({
    ...idp.config({ redirectUri: `${origin}/studio/auth/idp/callback`, name: 'Acme SSO' }),
    mail: { smtpUrl: mail.url, from: 'vellum@example.com' },
  }),
  (app, token) => ((b = app), (admin = token)),
);

const createEditor = (username: string) => createUser(b.t, admin, { username, password: PASSWORD, role: 'editor' });
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];

describe('studio account: identity provider and email codes', () => {
  it('links the identity provider from the account page, then unlinks it', async () => {
    await createEditor('linker');
    const bearer = await b.t.login('linker', PASSWORD);
    const linked = async () => (await b.t.request({ method: 'GET', url: '/api/auth/oauth/status', token: bearer })).json().data.linked;
    idp.state.claims = { sub: 'sso-linker', email: 'linker@idp.example', email_verified: true };
    const page = await b.newPage();
    await signIn(page, b.origin, 'linker', PASSWORD, '/studio/account');
    const section = page.getByRole('region', { name: 'Sign-in with Acme SSO' });
    await section.getByRole('button', { name: 'Link Acme SSO' }).click();
    await section.getByRole('button', { name: 'Unlink Acme SSO' }).waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/account`);
    expect(await linked()).toBe(true);
    // No authorization server here (oauth2 off): no "Connected applications" section.
    expect(await page.getByRole('heading', { name: 'Connected applications' }).count()).toBe(0);
    await expectAccessible(page, 'account page, linked');
    await screenshot(page, 'account-identity');
    await section.getByRole('button', { name: 'Unlink Acme SSO' }).click();
    await page.getByRole('dialog', { name: 'Unlink Acme SSO?' }).getByRole('button', { name: 'Unlink' }).click();
    await section.getByRole('button', { name: 'Link Acme SSO' }).waitFor();
    expect(await linked()).toBe(false);
    await page.close();
  });

  it('sets up email codes with the mailed code', async () => {
    await createEditor('mailcodes');
    const page = await b.newPage();
    await signIn(page, b.origin, 'mailcodes', PASSWORD, '/studio/account');
    await page.getByRole('button', { name: 'Set up email codes' }).click();
    await page.getByText('We sent a code to your email address.').waitFor();
    const code = codeIn((await mail.waitFor('mailcodes@example.com')).decoded);
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Email codes: on').waitFor();
    await expect.poll(() => page.getByTestId('backup-codes').getByRole('listitem').count()).toBe(10);
    const login = await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'mailcodes', password: PASSWORD } });
    expect(login.json().data).toMatchObject({ requiresMFA: true, methods: ['email'] });
    await page.close();
  });
});
