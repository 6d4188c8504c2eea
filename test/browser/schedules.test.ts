import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runDueSchedules } from '../../packages/server/src/domain/schedules/run-schedules.js';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// Scheduling in the studio (docs/studio.md, "Schedules"; docs/schedules.md): the editor's
// "Schedule…" dialog picking a time in the browser's zone and sending it as an instant, the
// document's pending and failed schedules beside the form, and the Schedules page's list and week.
let b: BrowserApp;
let admin: string;

const SCHEMAS = [
  { name: 'author', title: 'Author', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'author', type: 'reference', to: 'author' },
    ],
  },
];

// The runner stays off (the harness's default): the failed schedule below is run by the test itself.
useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = browserApi(
  () => b,
  () => admin,
).data;

const schedulesOf = async (id: string) => (await api('GET', `/schedules?documentId=${id}&limit=100`)) as Array<Record<string, string>>;

/** A tab in Paris's zone with British English (a 24-hour clock, day before month). */
async function parisPage(path: string, user: { username: string; password: string } = ADMIN): Promise<Page> {
  const page = await b.newPage();
  const cdp = await b.context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Europe/Paris' });
  await cdp.send('Emulation.setLocaleOverride', { locale: 'en-GB' });
  await signIn(page, b.origin, user.username, user.password, path);
  return page;
}

// A day next year in Paris's summer time (UTC+2), so the offset the studio sends is not today's by chance.
const YEAR = new Date().getUTCFullYear() + 1;
const JUNE_15 = `${YEAR}-06-15`;
/** The Monday starting the week of June 15 (the week view's address). */
const mondayOf = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};

describe('scheduling in the studio', () => {
  it('schedules a publish from the editor in the editor’s zone: a past time refused, the server’s 422 shown, the instant stored in UTC, cancelled', async () => {
    const doc = await api('POST', '/documents/post', { title: 'Summer launch' });
    const page = await parisPage(`/studio/documents/post/${doc._id}`);
    const panel = page.getByRole('region', { name: 'Scheduled' });
    await panel.getByText('Nothing is scheduled.').waitFor();

    await page.getByRole('button', { name: 'Schedule…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule publishing' });
    await dialog.waitFor();
    // The picker names the zone its times are in.
    await expect.poll(() => dialog.getByText('Time zone: Europe/Paris').count()).toBe(1);
    await expectAccessible(page, 'schedule dialog');
    await screenshot(page, 'schedule-dialog');

    // A past time is refused before anything is sent.
    let posted = 0;
    page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/schedule') && posted++));
    const picker = dialog.getByLabel('Date and time');
    await picker.fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText('This time is already past: choose a later one.').waitFor();
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(0);

    // The server's own 422 (what it answers for a past instant, a clock ahead of the browser's) on the field.
    const refusal = await b.t.request({
      method: 'POST',
      url: `/api/documents/post/${doc._id}/schedule`,
      token: admin,
      payload: { action: 'publish', at: '2020-01-01T10:00:00+01:00' },
    });
    expect(refusal.statusCode).toBe(422);
    const message = (refusal.json().error.details as Array<{ field: string; message: string }>).find((d) => d.field === 'at')!.message;
    await page.route('**/schedule', (route) => route.fulfill({ status: 422, contentType: 'application/json', body: refusal.body }));
    await picker.fill(`${JUNE_15}T09:30`);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText(message).waitFor();
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    await page.unroute('**/schedule');

    // Sent for real: 09:30 in Paris in June is 07:30 UTC.
    await dialog.getByRole('radio', { name: 'Publish', exact: true }).check();
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const [stored] = await schedulesOf(doc._id);
    expect(stored).toMatchObject({ action: 'publish', status: 'pending', at: `${JUNE_15}T07:30:00.000Z` });

    const pending = panel.getByRole('list', { name: 'Pending schedules' }).getByRole('listitem');
    await expect.poll(() => pending.textContent()).toMatch(/^Publishes on .*15 Jun.*09:30.*\(Europe\/Paris\)/);
    await expectAccessible(page, 'editor with a schedule');
    await screenshot(page, 'schedule-in-editor');

    await pending.getByRole('button', { name: /^Cancel publish on .*09:30/ }).click();
    await panel.getByText('Nothing is scheduled.').waitFor();
    expect((await schedulesOf(doc._id))[0]).toMatchObject({ status: 'cancelled' });
    await page.close();
  });

  it('lists schedules on the Schedules page, filtered by status, and places the pending ones in their week, cancelled from there', async () => {
    const doc = await api('POST', '/documents/post', { title: 'Week post' });
    const gone = await api('POST', '/documents/post', { title: 'Withdrawn post' });
    const publish = await api('POST', `/documents/post/${doc._id}/schedule`, { action: 'publish', at: `${JUNE_15}T16:45:00+02:00` });
    const withdrawn = await api('POST', `/documents/post/${gone._id}/schedule`, { action: 'unpublish', at: `${JUNE_15}T08:00:00Z` });
    await api('DELETE', `/schedules/${withdrawn.id}`);

    const page = await parisPage('/studio/');
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Schedules' }).click();
    await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
    const table = page.getByRole('region', { name: 'Schedules' });
    const row = table.getByRole('row', { name: /Week post/ });
    await row.waitFor();
    const [document, type, action, when, status, createdBy] = await row.getByRole('cell').allTextContents();
    expect([document, type, action, status, createdBy]).toEqual(['Week post', 'Post', 'Publish', 'Pending', 'You']);
    expect(when).toMatch(/15 Jun.*16:45/);
    // Pending is what the page shows first: the cancelled one is under its own status.
    expect(await table.getByRole('row', { name: /Withdrawn post/ }).count()).toBe(0);
    await expectAccessible(page, 'schedules list');
    await screenshot(page, 'schedules-list');

    await page.getByLabel('Status').selectOption('cancelled');
    await table.getByRole('row', { name: /Withdrawn post/ }).waitFor();
    expect(await table.getByRole('row', { name: /Week post/ }).count()).toBe(0);
    expect(await table.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    await page.getByLabel('Status').selectOption('pending');

    // The week of June 15, by its address; the page asks for that week's bounds.
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/schedules?') && asked.push(r.url())));
    const monday = mondayOf(JUNE_15);
    await page.goto(`${b.origin}/studio/schedules?view=week&week=${monday}`);
    const day = page.getByRole('region', { name: /\b15 Jun\b/ });
    const item = day.getByRole('listitem');
    await expect.poll(() => item.textContent()).toMatch(/16:45.*Publish.*Week post/);
    const url = new URL(asked.find((u) => u.includes('from='))!);
    // Midnight of that Monday in Paris (summer time), and the next Monday's.
    expect(url.searchParams.get('from')).toBe(new Date(`${monday}T00:00:00+02:00`).toISOString());
    expect(url.searchParams.get('to')).toBe(new Date(new Date(`${monday}T00:00:00+02:00`).getTime() + 7 * 86_400_000).toISOString());
    expect(await page.getByRole('heading', { level: 3 }).count()).toBe(7);
    await expectAccessible(page, 'schedules week');
    await screenshot(page, 'schedules-week');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'schedules week, dark');
    await screenshot(page, 'schedules-week-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await item.getByRole('button', { name: /^Cancel publish of Week post on/ }).click();
    await day.getByText('Nothing scheduled').waitFor();
    expect((await schedulesOf(doc._id)).find((s) => s.id === publish.id)).toMatchObject({ status: 'cancelled' });

    // Next and Previous move by a week; Today comes back to the week holding today.
    await page.getByRole('button', { name: 'Next week' }).click();
    const nextMonday = Number(mondayOf(JUNE_15).slice(8)) + 7;
    await page.getByRole('heading', { level: 2, name: new RegExp(`^Week of ${nextMonday} Jun`) }).waitFor();
    await page.getByRole('button', { name: 'Today' }).click();
    await page.locator('h3[aria-current="date"]').getByText('(today)').waitFor();
    await page.close();
  });

  it('a week across the end of summer time is asked from its Monday’s midnight to the next Monday’s, 7 days and 1 hour later', async () => {
    // The last Sunday of October: Paris's clocks go back from +02:00 to +01:00.
    const lastSunday = new Date(Date.UTC(YEAR, 9, 31));
    lastSunday.setUTCDate(31 - lastSunday.getUTCDay());
    const monday = mondayOf(lastSunday.toISOString().slice(0, 10));
    const next = new Date(`${monday}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 7);
    const page = await parisPage('/studio/');
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Schedules' }).waitFor();
    // The home asks this week's schedules too; only the Schedules page's request is the one under test.
    const asked = page.waitForRequest(
      (r) => r.url().includes('/api/schedules?') && r.url().includes('from=') && r.frame().url().includes('/studio/schedules'),
    );
    await page.goto(`${b.origin}/studio/schedules?view=week&week=${monday}`);
    const url = new URL((await asked).url());
    expect(url.searchParams.get('from')).toBe(new Date(`${monday}T00:00:00+02:00`).toISOString());
    expect(url.searchParams.get('to')).toBe(new Date(`${next.toISOString().slice(0, 10)}T00:00:00+01:00`).toISOString());
    expect(await page.getByRole('heading', { level: 3 }).count()).toBe(7);
    await page.close();
  });

  it('shows a schedule that failed, with its reason, in the editor and under Failed on the Schedules page', async () => {
    const author = await api('POST', '/documents/author', { name: 'Draft author' });
    const doc = await api('POST', '/documents/post', { title: 'Blocked post', author: author._id });
    // Two seconds ahead: the server refuses an instant already past, and a loaded machine is slow.
    const at = new Date(Date.now() + 2_000);
    await api('POST', `/documents/post/${doc._id}/schedule`, { action: 'publish', at: at.toISOString() });
    // Once due, the runner's pass (as the node running it) meets the reference rule's refusal.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now()) + 100));
    expect(await runDueSchedules(b.t.app.services)).toBe(1);
    const reason = `author: references author ${author._id}, which is not published`;
    expect((await schedulesOf(doc._id))[0]).toMatchObject({ status: 'failed' });

    const page = await parisPage(`/studio/documents/post/${doc._id}`);
    const failed = page.getByRole('region', { name: 'Scheduled' }).getByRole('list', { name: 'Failed schedules' }).getByRole('listitem');
    await expect.poll(() => failed.textContent()).toMatch(/^Publish on .* failed/);
    expect(await failed.textContent()).toContain(reason);

    await page.goto(`${b.origin}/studio/schedules?status=failed`);
    const row = page.getByRole('region', { name: 'Schedules' }).getByRole('row', { name: /Blocked post/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(reason);
    expect(await row.getByRole('button').count()).toBe(0);
    await expectAccessible(page, 'failed schedules');
    await page.close();
  });

  it('a writer without the publish permission sees the schedules but cannot schedule or cancel', async () => {
    const writer = { username: 'schedwriter', password: 'correct horse battery' };
    await createUser(b.t, admin, { ...writer, role: 'writer' });
    const doc = await api('POST', '/documents/post', { title: 'Writer’s view' });
    await api('POST', `/documents/post/${doc._id}/schedule`, { action: 'publish', at: `${JUNE_15}T12:00:00Z` });

    const page = await parisPage(`/studio/documents/post/${doc._id}`, writer);
    const panel = page.getByRole('region', { name: 'Scheduled' });
    await expect.poll(() => panel.getByRole('list', { name: 'Pending schedules' }).textContent()).toMatch(/^Publishes on/);
    expect(await page.getByRole('button', { name: 'Schedule…' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    await page.close();
  });
});
