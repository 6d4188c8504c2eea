import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { deviceTokens } from '../helpers/oauth2.js';
import { enableTotp, TOTP_PERIOD_MS, totpCode } from '../helpers/totp.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { addVirtualAuthenticator } from '../helpers/virtual-authenticator.js';

// The account page (docs/studio.md, "Pages"): password, second factors and backup codes,
// connected applications; each checked against the server through the API.
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

const totp = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * TOTP_PERIOD_MS);

useBrowserApp({ oauth2: { enabled: true }, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const createEditor = (username: string) => createUser(b.t, admin, { username, password: PASSWORD, role: 'editor' });
const loginStatus = async (username: string, password: string) =>
  (await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;

describe('studio account', () => {
  it('changes the password: the new one signs in, the old one no longer does', async () => {
    await createEditor('pwuser');
    const page = await b.newPage();
    await signIn(page, b.origin, 'pwuser', PASSWORD, '/studio/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('another-password-2');
    await page.getByLabel('Repeat the new password').fill('another-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    expect(await loginStatus('pwuser', 'another-password-2')).toBe(200);
    expect(await loginStatus('pwuser', PASSWORD)).toBe(401);

    // A wrong current password is refused with a message.
    await page.getByLabel('Current password').fill('not-it');
    await page.getByLabel('New password', { exact: true }).fill('third-password-3');
    await page.getByLabel('Repeat the new password').fill('third-password-3');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').waitFor();
    expect(await loginStatus('pwuser', 'third-password-3')).toBe(401);
    await expectAccessible(page, 'account page');
    await screenshot(page, 'account-password');
    await page.close();
  });

  it('sets up an authenticator app with the QR code, shows backup codes, regenerates them and turns it off', async () => {
    await createEditor('mfauser');
    const page = await b.newPage();
    await signIn(page, b.origin, 'mfauser', PASSWORD, '/studio/account');
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.getByLabel('Code', { exact: true }).fill(totp(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByTestId('backup-codes').getByRole('listitem').count()).toBe(10);
    const first = await page.getByTestId('backup-codes').getByRole('listitem').first().textContent();
    await screenshot(page, 'account-mfa-backup-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Authenticator app: on').waitFor();
    // Signing in now asks for the second factor.
    const login = (
      await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'mfauser', password: PASSWORD } })
    ).json();
    expect(login.data.requiresMFA).toBe(true);

    await page.getByRole('button', { name: 'New backup codes' }).click();
    await page.getByRole('textbox', { name: 'Your password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Make new backup codes' }).click();
    await expect.poll(() => page.getByTestId('backup-codes').getByRole('listitem').first().textContent()).not.toBe(first);
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await page.getByRole('button', { name: 'Turn off authenticator app' }).click();
    await page.getByRole('textbox', { name: 'Your password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await page.getByText('Authenticator app: off').waitFor();
    expect(await loginStatus('mfauser', PASSWORD)).toBe(200);
    const again = (
      await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'mfauser', password: PASSWORD } })
    ).json();
    expect(again.data.requiresMFA).toBeUndefined();
    await page.close();
  });

  it('lists connected applications and revoking one makes the API refuse its tokens', async () => {
    await createEditor('grantuser');
    const bearer = await b.t.login('grantuser', PASSWORD);
    const tokens = await deviceTokens(b.t, bearer, 'content:read');
    expect((await b.t.request({ method: 'POST', url: '/api/auth/validate', token: tokens.access_token })).statusCode).toBe(200);
    const page = await b.newPage();
    await signIn(page, b.origin, 'grantuser', PASSWORD, '/studio/account');
    const section = page.getByRole('region', { name: 'Connected applications' });
    const revoke = section.getByRole('button', { name: /^Revoke / });
    await revoke.waitFor();
    expect(await section.textContent()).toContain('content:read');
    await screenshot(page, 'account-grants');
    await revoke.click();
    await page.getByRole('button', { name: 'Revoke access' }).click();
    await section.getByText('No application has access to your account.').waitFor();
    expect((await b.t.request({ method: 'POST', url: '/api/auth/validate', token: tokens.access_token })).statusCode).toBe(401);
    const grants = await b.t.request({ method: 'GET', url: '/api/auth/grants', token: bearer });
    expect(grants.json().data).toEqual([]);
    await page.close();
  });

  it('adds a passkey with the virtual authenticator, renames it and deletes it', async () => {
    await createEditor('keyuser');
    const bearer = await b.t.login('keyuser', PASSWORD);
    const passkeys = async () => (await b.t.request({ method: 'GET', url: '/api/auth/passkey/credentials', token: bearer })).json().data;
    const page = await b.newPage();
    await addVirtualAuthenticator(page);
    await signIn(page, b.origin, 'keyuser', PASSWORD, '/studio/account');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('Passkey added.').waitFor();
    const [added] = await passkeys();
    await section.getByRole('button', { name: `Rename ${added.name}` }).click();
    await section.getByLabel(`New name for ${added.name}`).fill('Work laptop');
    await section.getByRole('button', { name: 'Save name' }).click();
    await section.getByText('Work laptop').waitFor();
    expect((await passkeys())[0].name).toBe('Work laptop');
    await screenshot(page, 'account-passkeys');
    await section.getByRole('button', { name: 'Delete Work laptop' }).click();
    await page.getByRole('dialog', { name: 'Delete the passkey “Work laptop”?' }).getByRole('button', { name: 'Delete passkey' }).click();
    await section.getByText('No passkeys yet.').waitFor();
    expect(await passkeys()).toEqual([]);
    await page.close();
  });

  it('lists trusted devices and revokes one, then all', async () => {
    await createEditor('trustuser');
    const page = await b.newPage();
    await signIn(page, b.origin, 'trustuser', PASSWORD, '/studio/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    const bearer = await b.t.login('trustuser', PASSWORD);
    const devices = async () => (await b.t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: bearer })).json().data;
    // A fresh authenticator (a code works once, so each device gets its own), then a sign-in that trusts the device.
    const trust = async (name: string, again = false) => {
      // Turning the method off forgets the trusted devices: the second device is made after that.
      if (again) {
        const off = await b.t.request({
          method: 'POST',
          url: '/api/auth/mfa/disable',
          token: bearer,
          payload: { method: 'totp', password: PASSWORD },
        });
        expect(off.statusCode, off.body).toBe(200);
      }
      const { secret } = await enableTotp(b.t, bearer);
      const login = await b.t.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'trustuser', password: PASSWORD } });
      const verified = await b.t.request({
        method: 'POST',
        url: '/api/auth/mfa/verify',
        payload: {
          mfaToken: login.json().data.mfaToken,
          code: totp(secret, 1),
          method: 'totp',
          trustDevice: true,
          deviceId: `browser-test-device-${name}`,
          deviceName: name,
        },
      });
      expect(verified.statusCode, verified.body).toBe(200);
    };
    await trust('Phone');
    expect(await devices()).toHaveLength(1);
    await page.reload();
    const section = page.getByRole('region', { name: 'Trusted devices' });
    await section.getByRole('button', { name: 'Revoke Phone' }).click();
    await page.getByRole('dialog', { name: 'Stop trusting “Phone”?' }).getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('No trusted devices').waitFor();
    expect(await devices()).toEqual([]);

    await trust('Tablet', true);
    await page.reload();
    await section.getByText('Tablet').waitFor();
    await section.getByRole('button', { name: 'Revoke all devices' }).click();
    await page.getByRole('dialog', { name: 'Stop trusting every device?' }).getByRole('button', { name: 'Revoke all' }).click();
    await section.getByText('No trusted devices').waitFor();
    expect(await devices()).toEqual([]);
    await page.close();
  });
});
