import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../packages/server/src/domain/webhooks/sign-payload.js';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The webhook pages (docs/studio.md, "Pages"): the list, the form with its event picker, the
// secret shown once, a hook's page with edit, switch, rotate, delete, the test event and the
// deliveries log; each step is checked against the API. The receiver is a real HTTP server on
// loopback, which deliveries may reach only with `webhooks.allowPrivateNetworks` (docs/webhooks.md).
let b: BrowserApp;
let admin: string;

/** What the receiver got, and the status it answers next. */
interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
const received: Received[] = [];
let answer = 204;
let receiver: Server;
let hookUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

useBrowserApp(
  { schemas: TEST_SCHEMAS, webhooks: { allowPrivateNetworks: true }, ...MANY_SIGN_INS },
  (app, token) => ((b = app), (admin = token)),
);

async function webhooks(): Promise<Array<Record<string, unknown>>> {
  const res = await b.t.request({ method: 'GET', url: '/api/webhooks', token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function webhook(id: string): Promise<Record<string, unknown>> {
  const res = await b.t.request({ method: 'GET', url: `/api/webhooks/${id}`, token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function createHook(name: string): Promise<string> {
  const res = await b.t.request({ method: 'POST', url: '/api/webhooks', token: admin, payload: { name, url: hookUrl, events: ['*'] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.webhook.id;
}

async function deleteHook(id: string): Promise<void> {
  const res = await b.t.request({ method: 'DELETE', url: `/api/webhooks/${id}`, token: admin });
  expect(res.statusCode).toBe(200);
}

async function openHook(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name: `Webhook “${name}”` }).waitFor();
}

describe('studio webhook pages', () => {
  it('creates a webhook with the event picker, shows its secret once, edits, switches, rotates and deletes it', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/');
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Name').fill('Search index');
    await dialog.getByLabel('URL').fill(hookUrl);
    await dialog.getByRole('checkbox', { name: /All document events/ }).check();
    // A resource's "all" covers its events: they show ticked, and cannot be changed one by one.
    const published = dialog.getByRole('checkbox', { name: 'document.published' });
    expect(await published.isChecked()).toBe(true);
    expect(await published.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'media.deleted' }).check();
    await dialog.getByRole('checkbox', { name: /\(post\)/ }).check();
    await expectAccessible(page, 'new webhook dialog');
    await screenshot(page, 'webhooks-form');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    const all = await webhooks();
    expect(all).toHaveLength(1);
    const [stored] = all;
    const id = String(stored.id);
    expect(stored).toMatchObject({
      name: 'Search index',
      url: hookUrl,
      events: ['document.*', 'media.deleted'],
      types: ['post'],
      active: true,
    });
    const row = page.getByRole('row', { name: /Search index/ });
    expect(await row.textContent()).toContain('All document events, media.deleted');
    expect(await row.textContent()).toContain('Active');
    await expectAccessible(page, 'webhooks list with the new secret');
    await screenshot(page, 'webhooks-list');
    // Shown once: "Done" hides it, and coming back does not show it again.
    await page.getByRole('button', { name: 'Done' }).click();
    // The secret's panel goes with the click's re-render: polled, so a loaded machine does not race it.
    await expect.poll(() => page.getByLabel('Signing secret', { exact: true }).count()).toBe(0);
    await page.reload();
    await page.getByRole('row', { name: /Search index/ }).waitFor();
    expect(await page.getByLabel('Signing secret', { exact: true }).count()).toBe(0);

    // Edit: the server's 422 is shown on the URL field, then a valid change is saved.
    await openHook(page, 'Search index');
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook “Search index”' });
    expect(await edit.getByRole('checkbox', { name: /\(post\)/ }).isChecked()).toBe(true);
    await edit.getByLabel('URL').fill('ftp://hooks.example.com/x');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('URL must be an absolute http or https URL.').waitFor();
    expect(await edit.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'edit dialog with a refused URL');
    await edit.getByLabel('URL').fill(hookUrl);
    await edit.getByLabel('Name').fill('Search indexer');
    await edit.getByRole('checkbox', { name: /^Everything/ }).check();
    await edit.getByRole('checkbox', { name: /\(post\)/ }).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Webhook “Search indexer”' }).waitFor();
    // The new name can render a frame before the dialog closes: polled, not read once.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await webhook(id)).toMatchObject({ name: 'Search indexer', events: ['*'], types: [], active: true });
    const settings = page.getByRole('region', { name: 'Settings' });
    expect(await settings.textContent()).toContain('Everything');

    // Switched off and on again.
    await page.getByRole('button', { name: 'Switch off' }).click();
    await page.getByRole('button', { name: 'Switch on' }).waitFor();
    expect(await settings.textContent()).toContain('Switched off');
    expect(await webhook(id)).toMatchObject({ active: false });
    await page.getByRole('button', { name: 'Switch on' }).click();
    await page.getByRole('button', { name: 'Switch off' }).waitFor();
    expect(await webhook(id)).toMatchObject({ active: true });

    // Rotating asks first, then shows the new secret once.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await expectAccessible(page, 'rotate dialog');
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expectAccessible(page, 'webhook page');
    await screenshot(page, 'webhook-detail');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'webhook page, dark theme');
    await screenshot(page, 'webhook-detail-dark');
    await page.getByRole('button', { name: 'Edit' }).click();
    await expectAccessible(page, 'edit dialog, dark theme');
    await screenshot(page, 'webhooks-form-dark');
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete webhook “Search indexer”?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    const gone = await b.t.request({ method: 'GET', url: `/api/webhooks/${id}`, token: admin });
    expect(gone.statusCode).toBe(404);
    await page.close();
  });

  it('sends a test event and shows its outcome; the deliveries log lists, filters and retries a dead one (not for a reader)', async () => {
    const id = await createHook('Test target');
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, `/studio/admin/webhooks/${id}`);
    await page.getByRole('heading', { name: 'Webhook “Test target”' }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();
    const rotated = await b.t.request({ method: 'POST', url: `/api/webhooks/${id}/rotate-secret`, token: admin });
    const secret: string = rotated.json().data.secret;

    answer = 204;
    const before = received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Delivered: HTTP 204 in \d+ ms\.$/ })
      .waitFor();
    // The receiver got it, signed with the hook's secret.
    const got = received[before];
    expect(JSON.parse(got.body).type).toBe('webhook.test');
    const signature = signPayload(secret, String(got.headers['webhook-id']), Number(got.headers['webhook-timestamp']), got.body);
    expect(String(got.headers['webhook-signature']).split(' ')).toContain(signature);
    await page.getByRole('row', { name: /webhook\.test.*Succeeded/ }).waitFor();

    answer = 500;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Not delivered: HTTP 500 \(after \d+ ms\)\.$/ })
      .waitFor();
    const deadRow = page.getByRole('row', { name: /webhook\.test.*Dead/ });
    await deadRow.waitFor();
    expect(await page.getByRole('region', { name: 'Deliveries' }).getByRole('row').count()).toBe(3);
    await expectAccessible(page, 'deliveries log');
    await screenshot(page, 'webhook-deliveries');

    await page.getByLabel('Filter by status').selectOption('dead');
    await page.getByRole('region', { name: 'Deliveries' }).getByRole('row').nth(2).waitFor({ state: 'detached' });
    expect(await page.getByRole('region', { name: 'Deliveries' }).getByRole('row').count()).toBe(2);

    // Retrying puts it back in the queue: no longer dead.
    answer = 204;
    await deadRow.getByRole('button', { name: /^Retry/ }).click();
    await page.getByText('No dead deliveries.').waitFor();
    const list = await b.t.request({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, token: admin });
    const statuses = list.json().data.map((d: { status: string }) => d.status);
    expect(statuses).not.toContain('dead');
    expect(statuses).toHaveLength(2);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByLabel('Filter by status').selectOption('');
    await page
      .getByRole('row', { name: /webhook\.test.*Succeeded/ })
      .first()
      .waitFor();
    await screenshot(page, 'webhook-deliveries-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.close();

    // Without webhooks:write a dead delivery is listed but offers no retry.
    answer = 500;
    const dead = await b.t.request({ method: 'POST', url: `/api/webhooks/${id}/test`, token: admin });
    expect(dead.json().data.status).toBe('dead');
    await createUser(b.t, admin, { username: 'logreader', password: 'browser-password-1', role: 'viewer', permissions: ['webhooks:read'] });
    const reader = await b.newPage();
    await signIn(reader, b.origin, 'logreader', 'browser-password-1', `/studio/admin/webhooks/${id}`);
    await reader.getByRole('row', { name: /webhook\.test.*Dead/ }).waitFor();
    expect(await reader.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    await reader.close();
    answer = 204;
    await deleteHook(id);
  });

  it('shows a webhook the delivery worker switched off, with the reason and time; switching it on clears them', async () => {
    const id = await createHook('Flaky receiver');
    const at = new Date().toISOString();
    await b.t.app.services.database.db
      .updateTable('webhooks')
      .set({ active: 0, consecutive_failures: 7, disabled_at: at, disabled_reason: 'too many failures' })
      .where('id', '=', id)
      .execute();
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/webhooks');
    const row = page.getByRole('row', { name: /Flaky receiver/ });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('Switched off');
    expect(text).toContain('too many failures');
    expect(text).toContain('by the delivery worker');
    expect(text).toContain(String(new Date(at).getFullYear()));
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('7');
    await screenshot(page, 'webhooks-list-disabled');
    await page.setViewportSize({ width: 760, height: 900 });
    await expectAccessible(page, 'webhooks list, tablet width');
    await screenshot(page, 'webhooks-list-tablet');
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHook(page, 'Flaky receiver');
    await page.getByRole('button', { name: 'Switch on' }).click();
    await page.getByRole('button', { name: 'Switch off' }).waitFor();
    expect(await webhook(id)).toMatchObject({ active: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
    expect(await page.getByRole('region', { name: 'Settings' }).textContent()).not.toContain('too many failures');
    await deleteHook(id);
    await page.close();
  });

  it('the form works from the keyboard, and an empty event choice is refused on the event picker before it is sent', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/webhooks');
    const trigger = page.getByRole('button', { name: 'New webhook' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.waitFor();
    // The dialog takes the focus to its first field.
    expect(await dialog.getByLabel('Name').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('Keyboard hook');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(hookUrl);
    await page.keyboard.press('Enter');
    const events = dialog.getByRole('group', { name: 'Events' });
    await events.getByText('Choose at least one event.').waitFor();
    expect(await events.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'new webhook dialog with a refused event choice');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('checkbox', { name: /^Everything/ }).isChecked()).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByLabel('Signing secret', { exact: true }).waitFor();
    expect(await dialog.count()).toBe(0);
    // Closed, the dialog gives the focus back to the button that opened it.
    expect(await trigger.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    const hook = (await webhooks()).find((w) => w.name === 'Keyboard hook');
    expect(hook).toMatchObject({ url: hookUrl, events: ['*'], types: [], active: true });
    await deleteHook(String(hook!.id));
    await page.close();
  });

  it('a user with webhooks:read only sees the pages without create, edit, rotate, delete or test; without it, neither link nor page', async () => {
    // The user first: made after the hook, its `user.created` would be queued (and delivered) for it.
    await createUser(b.t, admin, {
      username: 'hookreader',
      password: 'browser-password-1',
      role: 'viewer',
      permissions: ['webhooks:read'],
    });
    const id = await createHook('Read only');
    const page = await b.newPage();
    await signIn(page, b.origin, 'hookreader', 'browser-password-1', '/studio/admin/webhooks');
    await page.getByRole('row', { name: /Read only/ }).waitFor();
    expect(await page.getByRole('button', { name: 'New webhook' }).count()).toBe(0);
    await openHook(page, 'Read only');
    await page.getByText('No deliveries yet.').waitFor();
    for (const name of ['Edit', 'Switch off', 'Rotate secret', 'Delete', 'Send test event']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    await expectAccessible(page, 'webhook page, read only');
    await page.close();

    await createUser(b.t, admin, { username: 'nohooks', password: 'browser-password-1', role: 'viewer' });
    const other = await b.newPage();
    await signIn(other, b.origin, 'nohooks', 'browser-password-1', '/studio/admin/webhooks');
    await other.getByRole('alert').waitFor();
    expect(await other.getByRole('alert').textContent()).toContain('needs the webhooks:read permission');
    expect(await other.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await other.close();
    await deleteHook(id);
  });
});
