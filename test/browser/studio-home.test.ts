import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDueSchedules } from '../../packages/server/src/domain/schedules/run-schedules.js';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// The studio's home (docs/studio.md, "The home"): my drafts, recently edited by others, unpublished
// changes, what is scheduled this week and, for those who may act on them, webhooks and schedules
// that need attention; each a short list linking into the studio, at 1440 px and 390 px.
let b: BrowserApp;
let admin: string;
let editor: string;

const PASSWORD = 'browser-password-1';
const SCHEMAS = [
  { name: 'author', title: 'Author', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
      { name: 'author', type: 'reference', to: 'author' },
    ],
  },
];

// The schedule runner stays off (the harness's default): the failed schedule is run by the test.
useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = browserApi(
  () => b,
  () => admin,
).data;

/**
 * A zone in which ten minutes from now is still this week (Monday to Sunday): New York, or UTC
 * when it is late on Sunday in New York (it is Monday in UTC then).
 */
function zoneWithWeekLeft(): string {
  const soon = new Date(Date.now() + 15 * 60_000);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: 'numeric', hourCycle: 'h23' })
    .formatToParts(soon)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return parts.weekday === 'Sun' && Number(parts.hour) >= 23 ? 'UTC' : 'America/New_York';
}
const ZONE = zoneWithWeekLeft();

/** A tab in `ZONE` with US English, signed in as `user`, at `width`. */
async function homeAs(user: { username: string; password: string }, width = 1440): Promise<Page> {
  const page = await b.newPage();
  await page.setViewportSize({ width, height: 900 });
  const cdp = await b.context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: ZONE });
  await cdp.send('Emulation.setLocaleOverride', { locale: 'en-US' });
  await signIn(page, b.origin, user.username, user.password, '/studio/');
  await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
  return page;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });
/** The rows of a section once it has answered: each row's link text. */
async function rowTitles(page: Page, name: string): Promise<string[]> {
  const region = section(page, name);
  await expect.poll(() => region.getByText('Loading…').count()).toBe(0);
  return region.getByRole('listitem').evaluateAll((items) => items.map((li) => li.querySelector('a')?.textContent ?? ''));
}

/** Every section has answered (and the titles of scheduled documents are read). */
const settled = (page: Page) => expect.poll(() => page.getByText('Loading…').count()).toBe(0);

const ids: Record<string, string> = {};

beforeAll(async () => {
  await createUser(b.t, admin, { username: 'edith', password: PASSWORD, role: 'editor', firstName: 'Edith' });
  await createUser(b.t, admin, { username: 'victor', password: PASSWORD, role: 'viewer', permissions: [] });
  editor = await b.t.login('edith', PASSWORD);
  const post = async (title: string, token: string, extra: Record<string, unknown> = {}) =>
    (ids[title] = (await api('POST', '/documents/post', { title, ...extra }, token))._id);
  // In this order, so "newest first" has one answer: each write is later than the one before.
  await post('Admin notes', admin);
  await post('Pricing', admin, { _status: 'published' });
  await post('Edith’s draft', editor);
  await post('About us', editor, { _status: 'published' });
  await api('PATCH', `/documents/post/${ids.Pricing}?draft=true`, { title: 'Pricing v2' });
  await post('Launch', editor);
  await api(
    'POST',
    `/documents/post/${ids.Launch}/schedule`,
    { action: 'publish', at: new Date(Date.now() + 10 * 60_000).toISOString() },
    editor,
  );
  await post('Later', editor);
  const nextWeek = new Date(Date.now() + 8 * 24 * 3600_000).toISOString();
  await api('POST', `/documents/post/${ids.Later}/schedule`, { action: 'publish', at: nextWeek }, editor);
  ids['Draft author'] = (await api('POST', '/documents/author', { name: 'Draft author' }))._id;
  // A publish that fails: the post references an author who is not published (docs/schedules.md).
  await post('Blocked post', editor, { author: ids['Draft author'] });
  const at = new Date(Date.now() + 2_000);
  await api('POST', `/documents/post/${ids['Blocked post']}/schedule`, { action: 'publish', at: at.toISOString() }, editor);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now()) + 100));
  expect(await runDueSchedules(b.t.app.services)).toBe(1);

  // Webhooks: one switched off through the API, one failing (its failure count as the delivery
  // worker leaves it, written as test/browser/webhooks-pages.test.ts does), one healthy.
  const hook = async (name: string, active = true) =>
    (await api('POST', '/webhooks', { name, url: 'https://hooks.example.com/in', events: ['document.*'], active })).webhook.id as string;
  await hook('Switched-off hook', false);
  const failing = await hook('Failing hook');
  await hook('Healthy hook');
  await b.t.app.services.database.db.updateTable('webhooks').set({ consecutive_failures: 3 }).where('id', '=', failing).execute();
});

describe('the studio’s home', () => {
  it('shows an administrator each section, newest first, linking into the studio', async () => {
    const page = await homeAs(ADMIN);
    expect(await rowTitles(page, 'My drafts')).toEqual(['Draft author', 'Pricing v2', 'Admin notes']);
    const mine = section(page, 'My drafts');
    expect(await mine.getByRole('listitem').nth(1).textContent()).toContain('Post · Unpublished changes');
    expect(await mine.getByRole('listitem').nth(0).textContent()).toContain('Author · Draft');
    // Times in the viewer's locale and zone.
    const stamp = mine.getByRole('listitem').nth(2).locator('time');
    const iso = (await stamp.getAttribute('datetime')) as string;
    expect(await stamp.textContent()).toBe(new Date(iso).toLocaleString('en-US', { timeZone: ZONE }));
    expect(await mine.getByRole('link', { name: 'Pricing v2' }).getAttribute('href')).toBe(`/studio/documents/post/${ids.Pricing}`);

    // Five rows at most: the oldest of the editor's six writes is left out.
    expect(await rowTitles(page, 'Recently edited by others')).toEqual(['Blocked post', 'Later', 'Launch', 'About us', 'Edith’s draft']);
    expect(await rowTitles(page, 'Unpublished changes')).toEqual(['Pricing v2']);

    expect(await rowTitles(page, 'Scheduled this week')).toEqual(['Launch']);
    const scheduled = section(page, 'Scheduled this week');
    expect(await scheduled.getByRole('listitem').textContent()).toContain('Publishes');
    expect(await scheduled.getByRole('link', { name: `The whole week (${ZONE})` }).getAttribute('href')).toBe(
      '/studio/schedules?view=week',
    );

    const attention = section(page, 'Needs attention');
    expect(await rowTitles(page, 'Needs attention')).toEqual(['Webhook Failing hook', 'Webhook Switched-off hook', 'Blocked post']);
    const text = (await attention.textContent()) ?? '';
    expect(text).toContain('3 failed attempts in a row');
    expect(text).toContain('Switched off');
    expect(text).toContain(`author: references author ${ids['Draft author']}, which is not published`);
    expect(text).not.toContain('Healthy hook');
    expect(await attention.getByRole('link', { name: 'All failed schedules' }).getAttribute('href')).toBe(
      '/studio/schedules?status=failed',
    );
    await settled(page);
    await expectAccessible(page, 'home, administrator, 1440 px');
    await screenshot(page, 'studio-home-1440');
    await page.close();
  });

  it('fits 390 px without sideways scrolling, and a row opens its document in the editor', async () => {
    const page = await homeAs(ADMIN, 390);
    expect(await rowTitles(page, 'Needs attention')).toHaveLength(3);
    await settled(page);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expectAccessible(page, 'home, administrator, 390 px');
    await screenshot(page, 'studio-home-390');

    await section(page, 'Unpublished changes').getByRole('link', { name: 'Pricing v2' }).click();
    await page.waitForURL(`**/studio/documents/post/${ids.Pricing}`);
    await page.getByText('Unpublished changes', { exact: true }).first().waitFor();
    await page.close();
  });

  it('shows an editor their own drafts and the failed schedules, without the webhooks they may not read', async () => {
    const page = await homeAs({ username: 'edith', password: PASSWORD });
    // "About us" is published with nothing pending: not a draft of hers.
    expect(await rowTitles(page, 'My drafts')).toEqual(['Blocked post', 'Later', 'Launch', 'Edith’s draft']);
    expect(await rowTitles(page, 'Recently edited by others')).toEqual(['Draft author', 'Pricing v2', 'Admin notes']);
    expect(await rowTitles(page, 'Needs attention')).toEqual(['Blocked post']);
    await settled(page);
    await expectAccessible(page, 'home, editor');
    await page.close();
  });

  it('shows a viewer no administration section, and says so when a list is empty; at 390 px', async () => {
    const webhookCalls: string[] = [];
    const viewer = await homeAs({ username: 'victor', password: PASSWORD }, 390);
    viewer.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/api/webhooks') && webhookCalls.push(r.url())));
    await viewer.reload();
    expect(await rowTitles(viewer, 'My drafts')).toEqual([]);
    await section(viewer, 'My drafts').getByText('Nothing of yours is waiting to be published.').waitFor();
    expect(await rowTitles(viewer, 'Unpublished changes')).toEqual(['Pricing v2']);
    expect(await rowTitles(viewer, 'Scheduled this week')).toEqual(['Launch']);
    expect(await viewer.getByRole('heading', { name: 'Needs attention' }).count()).toBe(0);
    expect(webhookCalls).toEqual([]);
    expect(await viewer.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await settled(viewer);
    await expectAccessible(viewer, 'home, viewer, 390 px');
    await screenshot(viewer, 'studio-home-viewer-390');
    await viewer.close();
  });

  it('says so when nothing is pending: no unpublished changes, nothing scheduled this week, nothing needing attention', async () => {
    await api('POST', `/documents/post/${ids.Pricing}/publish`);
    const schedules = (await api('GET', '/schedules?status=pending&limit=100')) as Array<{ id: string }>;
    for (const s of schedules) await api('DELETE', `/schedules/${s.id}`);
    const page = await homeAs({ username: 'edith', password: PASSWORD });
    await section(page, 'Unpublished changes').getByText('No published document has unpublished changes.').waitFor();
    await section(page, 'Scheduled this week').getByText('Nothing is scheduled this week.').waitFor();
    // The failed schedule stays: it is what the editor must see.
    expect(await rowTitles(page, 'Needs attention')).toEqual(['Blocked post']);
    await settled(page);
    await expectAccessible(page, 'home, empty sections');
    await page.close();
  });
});
