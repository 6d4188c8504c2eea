import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// The deliveries log follows new deliveries while it is open (docs/studio.md, "Live updates"):
// at once for the document events the studio's stream brings, by asking now and then for the
// rest. The delivery worker runs, so each delivery reaches the loopback receiver and succeeds.
let b: BrowserApp;
let admin: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

useBrowserApp(
  { schemas: TEST_SCHEMAS, webhooks: { worker: true, allowPrivateNetworks: true }, ...MANY_SIGN_INS },
  (app, token) => ((b = app), (admin = token)),
);

async function createHook(name: string, events: string[], types: string[] = []): Promise<string> {
  const res = await b.t.request({
    method: 'POST',
    url: '/api/webhooks',
    token: admin,
    payload: { name, url: receiver.url(`/${name}`), events, types },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.webhook.id;
}

/** The hook's page, its log empty, and every navigation of the tab from then on. */
async function openLog(id: string): Promise<{ page: Page; navigations: string[] }> {
  const page = await b.newPage();
  await signIn(page, b.origin, ADMIN.username, ADMIN.password, `/studio/admin/webhooks/${id}`);
  await page.getByText('No deliveries yet.').waitFor();
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
  return { page, navigations };
}

describe('studio webhook deliveries log, live', () => {
  it('shows the delivery of a document event made after the page opened, and its outcome, without a reload', async () => {
    const id = await createHook('documents', ['document.created'], ['company']);
    const { page, navigations } = await openLog(id);

    const made = await b.t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Delivered live' } });
    expect(made.statusCode).toBe(201);
    const log = page.getByRole('region', { name: 'Deliveries' });
    await log.getByRole('row', { name: /document\.created.*Succeeded/ }).waitFor();
    expect(receiver.to('/documents')).toHaveLength(1);
    expect(JSON.parse(receiver.to('/documents')[0].body).data.name).toBe('Delivered live');
    expect(navigations).toEqual([]);
    await page.close();
  });

  it('shows a delivery of an event the studio does not follow (a user created), without a reload', { timeout: 60_000 }, async () => {
    const id = await createHook('users', ['user.created']);
    const { page, navigations } = await openLog(id);

    await createUser(b.t, admin, { username: 'deliveredlive', password: 'browser-password-1', role: 'viewer' });
    // No event reaches the page for it: the log finds it when it next asks (every 10 s while visible).
    await page
      .getByRole('region', { name: 'Deliveries' })
      .getByRole('row', { name: /user\.created.*Succeeded/ })
      .waitFor({ timeout: 30_000 });
    expect(receiver.to('/users')).toHaveLength(1);
    expect(navigations).toEqual([]);
    await page.close();
  });
});
