import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

// The account page's profile form, saved with PATCH /auth/me (docs/studio.md, "Pages").
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

beforeAll(async () => {
  b = await startBrowserApp({ security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } } });
  admin = await b.t.login(ADMIN.username, ADMIN.password);
  for (const username of ['pat', 'quinn']) {
    const res = await b.t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { username, email: `${username}@example.com`, password: PASSWORD, role: 'editor' },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => b?.close());

const meAs = async (username: string) => {
  const token = await b.t.login(username, PASSWORD);
  return (await b.t.request({ method: 'GET', url: '/api/auth/me', token })).json().data;
};

describe('the profile on the account page', () => {
  it('changes the name, then the email with the current password; server refusals show on their fields', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, 'pat', PASSWORD, '/studio/account');
    const form = page.getByRole('form', { name: 'Profile' });
    await form.getByLabel('First name').fill('Pat');
    await form.getByLabel('Last name').fill('Doe');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('status').filter({ hasText: 'Profile saved.' }).waitFor();
    expect(await meAs('pat')).toMatchObject({ firstName: 'Pat', lastName: 'Doe', name: 'Pat Doe' });
    await expectAccessible(page, 'account profile');

    // A new email asks for the current password; a wrong one is refused on that field.
    await form.getByLabel('Email', { exact: true }).fill('pat.doe@example.com');
    const current = form.getByLabel('Current password (to change the email)');
    await current.fill('not-my-password');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('The current password is wrong.').waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');

    // Another account's email is refused on the email field.
    await form.getByLabel('Email', { exact: true }).fill('quinn@example.com');
    await current.fill(PASSWORD);
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('Another account has this email.').waitFor();
    expect(await form.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'account-profile-error');
    expect((await meAs('pat')).email).toBe('pat@example.com');

    await form.getByLabel('Email', { exact: true }).fill('pat.doe@example.com');
    await current.fill(PASSWORD);
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('status').filter({ hasText: 'Profile saved.' }).waitFor();
    expect((await meAs('pat')).email).toBe('pat.doe@example.com');
    // Saved: the password box goes away with the change it confirmed, and a reload shows the new values.
    expect(await current.count()).toBe(0);
    await page.reload();
    await expect.poll(() => form.getByLabel('Email', { exact: true }).inputValue()).toBe('pat.doe@example.com');
    expect(await form.getByLabel('First name').inputValue()).toBe('Pat');
    await page.close();
  });
});

describe('the account page without OAuth 2.0', () => {
  it('asks no GET /auth/grants (a 501 on every visit) and leaves no error in the console', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, 'quinn', PASSWORD, '/studio/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    // A fresh visit of the signed-in page, watched from its first request.
    const grants: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/auth/grants')) grants.push(`${r.method()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/config/studio');
    await page.reload();
    expect((await config).status()).toBe(200);
    // Every section has asked and drawn its answer (the grants were asked beside the others).
    await page.getByText('No trusted devices').waitFor();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(grants).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.getByRole('heading', { name: 'Connected applications' }).count()).toBe(0);
    await page.close();
  });
});
