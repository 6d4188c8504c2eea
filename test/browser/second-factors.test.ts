import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { enableTotp, TOTP_PERIOD_MS, totpCode } from '../helpers/totp.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { addVirtualAuthenticator } from '../helpers/virtual-authenticator.js';

// Second factors and passkeys in the studio, in Chromium (docs/studio.md, "Pages": sign-in).
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

/** The TOTP code of a secret `steps` periods from now (a code works once, so each use takes a later step). */
const totp = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * TOTP_PERIOD_MS);

useBrowserApp(MANY_SIGN_INS, (app, token) => ((b = app), (admin = token)));

const createEditor = (username: string) => createUser(b.t, admin, { username, password: PASSWORD, role: 'editor' });

describe('second factors', () => {
  it('signs in with a TOTP code; with "trust this device" the next sign-in asks for no code', async () => {
    await createEditor('totpuser');
    const session = await b.t.login('totpuser', PASSWORD);
    const { secret } = await enableTotp(b.t, session);

    const page = await b.newPage();
    await signIn(page, b.origin, 'totpuser', PASSWORD);
    await page.getByRole('form', { name: 'Second factor' }).waitFor();
    await expectAccessible(page, 'second factor step');
    await screenshot(page, 'sign-in-totp');
    await page.getByRole('radio', { name: 'Authenticator app' }).check();
    await page.getByRole('textbox', { name: 'Code from your authenticator app' }).fill(totp(secret, 1));
    await page.getByLabel(/Trust this device/).check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.close();

    // The same browser (its device id in localStorage) is trusted now.
    const again = await b.newPage();
    await signIn(again, b.origin, 'totpuser', PASSWORD);
    await again.getByRole('heading', { name: /Welcome/ }).waitFor();
    await again.close();
  });

  it('a backup code signs in too', async () => {
    await createEditor('backupuser');
    const session = await b.t.login('backupuser', PASSWORD);
    const [backup] = (await enableTotp(b.t, session)).backupCodes;
    const page = await b.newPage();
    await signIn(page, b.origin, 'backupuser', PASSWORD);
    await page.getByRole('radio', { name: 'Backup code' }).check();
    await page.getByRole('textbox', { name: 'One of your backup codes' }).fill(backup);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.close();
  });

  it('MFA setup when the instance requires it: QR code, code confirmed, backup codes shown once, signed in', async () => {
    await createEditor('setupuser');
    const required = await b.t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    expect(required.statusCode, required.body).toBe(200);
    try {
      const page = await b.newPage();
      await signIn(page, b.origin, 'setupuser', PASSWORD);
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await page.getByRole('img', { name: /QR code/ }).waitFor();
      const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      await expectAccessible(page, 'MFA setup');
      await screenshot(page, 'mfa-setup');
      await page.getByRole('textbox', { name: 'Code' }).fill(totp(secret));
      await page.getByRole('button', { name: 'Confirm' }).click();
      const codes = page.getByTestId('backup-codes').getByRole('listitem');
      await codes.first().waitFor();
      expect(await codes.count()).toBe(10);
      await page.getByRole('button', { name: 'Download' }).waitFor();
      await expectAccessible(page, 'backup codes');
      await screenshot(page, 'mfa-backup-codes');
      await page.getByRole('button', { name: /continue/ }).click();
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      const status = await b.t.request({ method: 'GET', url: '/api/auth/mfa/status', token: await tokenOf('setupuser', secret) });
      expect(status.json().data.methods).toEqual(['totp']);
      await page.close();
    } finally {
      await b.t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });

  it('registers a passkey with the virtual authenticator, then signs in with it alone', async () => {
    const page = await b.newPage();
    await addVirtualAuthenticator(page);
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/account');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor();
    const list = await b.t.request({ method: 'GET', url: '/api/auth/passkey/credentials', token: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toHaveLength(1);
    await expectAccessible(page, 'account page');
    await screenshot(page, 'account');

    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Signing out is not a session that ended by itself.
    await expect(page.getByText('Your session has ended').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(await page.getByRole('button', { name: /Account/ }).textContent()).toContain('admin');
    await page.close();
  });
});

/** A session of a user with TOTP, through the API (a later step's code). */
async function tokenOf(username: string, secret: string): Promise<string> {
  const login = await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password: PASSWORD } });
  const mfaToken = login.json().data.mfaToken as string;
  const res = await b.t.request({
    method: 'POST',
    url: '/api/auth/mfa/verify',
    payload: { mfaToken, code: totp(secret, 1), method: 'totp' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}
