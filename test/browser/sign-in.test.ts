import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser as createUserAs } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// Signing in to the studio in Chromium, and what the studio does with 401 and 403 afterwards
// (docs/studio.md, "Signing in").
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const createUser = (username: string, role: string, permissions: string[] = []) =>
  createUserAs(b.t, admin, { username, password: PASSWORD, role, permissions });

describe('studio sign-in', () => {
  it('signs in with a password, lands on the page asked for, shows the navigation from /config/structure', async () => {
    const page = await b.newPage();
    await page.goto(`${b.origin}/studio/account`);
    await expect.poll(() => page.url()).toContain('/studio/sign-in?next=%2Faccount');
    await expectAccessible(page, 'sign-in page');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/account`);
    const nav = page.getByRole('navigation', { name: 'Studio' });
    for (const name of ['Post', 'Author', 'Media', 'Users', 'API tokens']) await nav.getByRole('link', { name, exact: true }).waitFor();
    await page.getByRole('link', { name: 'Vellum Studio' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await expectAccessible(page, 'home page');
    await screenshot(page, 'home');
    // A reload keeps the sign-in (the refresh token of this tab).
    await page.reload();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.close();
  });

  it('a wrong password is refused with a message and stays on the sign-in page', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, 'not-the-password');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/invalid|incorrect|wrong/i);
    expect(page.url()).toContain('/studio/sign-in');
    await page.close();
  });

  it('the global search finds documents by title across types', async () => {
    for (const title of ['Zephyr launch notes', 'Zephyr roadmap'])
      expect((await b.t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title } })).statusCode).toBe(201);
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password);
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('zeph');
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByRole('link', { name: /Zephyr roadmap/ }).waitFor();
    expect(await results.getByRole('link').count()).toBe(2);
    await screenshot(page, 'global-search');
    await results.getByRole('link', { name: /Zephyr launch notes/ }).click();
    await expect.poll(() => page.url()).toMatch(/\/studio\/documents\/post\/[\w-]+$/);
    await page.close();
  });

  it('a user without studio:access is told so', async () => {
    await createUser('nostudio', 'api', ['content:read']);
    const page = await b.newPage();
    await signIn(page, b.origin, 'nostudio', PASSWORD);
    await page.getByRole('heading', { name: 'No access to the studio' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('may not use the studio');
    await expectAccessible(page, 'no-access page');
    await screenshot(page, 'no-studio-access');
    await page.close();
  });

  it('a 403 shows a message and never signs out', async () => {
    await createUser('postonly', 'api', ['studio:access', 'post:read']);
    const page = await b.newPage();
    await signIn(page, b.origin, 'postonly', PASSWORD, '/studio/documents/author');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('You do not have permission');
    expect(page.url()).toBe(`${b.origin}/studio/documents/author`);
    await screenshot(page, 'forbidden');
    // Still signed in: the shell is there and another page opens.
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Post', exact: true }).click();
    await page.getByRole('heading', { name: 'post' }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await page.close();
  });

  it('a 401 whose refresh is refused goes to sign-in, and signing in again returns to the page', async () => {
    const id = await createUser('deactivated', 'editor');
    const page = await b.newPage();
    // The session is cut once the page is complete, so that the request refused is the one of the
    // page the click opens. Two things would otherwise end it on this page first, and detach the
    // link before a slow click: a request of this page still in flight (the Author filter's
    // documents are asked only once the schemas have answered), and the live-updates stream, which
    // the server ends when the account is switched off and whose reconnect 2 s later is refused
    // (the next test). So every request of the page is awaited, and the stream is left unanswered.
    await page.route(
      (url) => url.pathname === '/api/events',
      () => undefined,
    );
    const answered = (path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === 'GET');
    const requests = [
      '/api/config/studio',
      '/api/config/structure',
      '/api/config/schemas',
      '/api/collections/post',
      '/api/collections/author',
    ];
    const loaded = Promise.all(requests.map(answered));
    await signIn(page, b.origin, 'deactivated', PASSWORD, '/studio/documents/post');
    await page.getByRole('heading', { name: 'post' }).waitFor();
    await loaded;
    const off = await b.t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Author', exact: true }).click();
    await page.getByText('Your session has ended').waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/sign-in?next=%2Fdocuments%2Fauthor`);
    const on = await b.t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: true } });
    expect(on.statusCode, on.body).toBe(200);
    await page.getByLabel('Username or email').fill('deactivated');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'author' }).waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/documents/author`);
    await page.close();
  });

  it('an account switched off while a page is open: its live stream is ended and refused, so the tab goes to sign-in by itself and back to that page', async () => {
    const id = await createUser('switchedoff', 'editor');
    const page = await b.newPage();
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events' && r.status() === 200);
    await signIn(page, b.origin, 'switchedoff', PASSWORD, '/studio/documents/post');
    await page.getByRole('heading', { name: 'post' }).waitFor();
    await stream;
    const off = await b.t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    // No click: the server ends the stream of a user switched off (docs/realtime.md, "Permissions"),
    // the reconnect meets a 401 and its refresh is refused.
    await page.getByText('Your session has ended').waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/sign-in?next=%2Fdocuments%2Fpost`);
    const on = await b.t.request({ method: 'PUT', url: `/api/users/${id}`, token: admin, payload: { active: true } });
    expect(on.statusCode, on.body).toBe(200);
    await page.getByLabel('Username or email').fill('switchedoff');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'post' }).waitFor();
    expect(page.url()).toBe(`${b.origin}/studio/documents/post`);
    await page.close();
  });
});
