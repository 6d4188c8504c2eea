import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// Stored values where the studio shows them without editing them (docs/studio.md, "Pages"):
// `datetime` and `date` fields in the browser's locale and zone, as "Updated" is, in the list and
// the revision diff; and the new-document form with no empty side panel.
let b: BrowserApp;
let admin: string;

const SCHEMAS = [
  {
    name: 'event',
    title: 'Event',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'startsOn', type: 'date' },
      { name: 'publishedAt', type: 'datetime' },
    ],
  },
];

useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = browserApi(
  () => b,
  () => admin,
).data;

/**
 * A tab in New York's zone with US English: a day parsed as UTC midnight would show the day
 * before there, and an ISO instant differs from its local time by the zone's offset.
 */
async function newYorkPage(path: string): Promise<Page> {
  const page = await b.newPage();
  const cdp = await b.context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/New_York' });
  await cdp.send('Emulation.setLocaleOverride', { locale: 'en-US' });
  await signIn(page, b.origin, ADMIN.username, ADMIN.password, path);
  return page;
}

const cells = (page: Page, row: string) =>
  page
    .getByRole('row', { name: new RegExp(row) })
    .getByRole('cell')
    .allTextContents();
// en-US puts a (narrow) space before AM/PM, depending on the ICU version.
const NOV_27_0930Z = /^11\/27\/2026,\s4:30:00\sAM$/;

describe('studio dates and the new-document form', () => {
  it('shows datetime and date fields in the browser locale and zone, in the list as "Updated" is, and in the revision diff', async () => {
    const doc = await api('POST', '/documents/event', { title: 'Launch', startsOn: '2026-11-27', publishedAt: '2026-11-27T09:30:00.000Z' });
    await api('PATCH', `/documents/event/${doc._id}`, { startsOn: '2026-12-01', publishedAt: '2026-12-01T18:05:00.000Z' });
    await api('POST', '/documents/event', { title: 'Undated' });

    const page = await newYorkPage('/studio/documents/event');
    await page.getByRole('columnheader', { name: 'Published At' }).waitFor();
    // The first cell is the row's checkbox, the second its title.
    const [, , startsOn, publishedAt, , updated] = await cells(page, 'Launch');
    expect(startsOn).toBe('12/1/2026');
    expect(publishedAt).toMatch(/^12\/1\/2026,\s1:05:00\sPM$/);
    // The same form as "Updated" (the app's clock: only its shape is known).
    expect(updated).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4},\s\d{1,2}:\d{2}:\d{2}\s[AP]M$/);
    // No value is no text.
    const [, , noDay, noMoment] = await cells(page, 'Undated');
    expect([noDay, noMoment]).toEqual(['', '']);
    await expectAccessible(page, 'list with dates');
    await screenshot(page, 'documents-dates-list');

    await page.getByRole('link', { name: 'Launch' }).click();
    await page.getByRole('button', { name: 'Revision 1' }).click();
    const diff = page.getByRole('region', { name: 'Changes since revision 1' });
    const [before, now] = await diff
      .getByRole('row', { name: /Published At/ })
      .getByRole('cell')
      .allTextContents();
    expect(before).toMatch(NOV_27_0930Z);
    expect(now).toMatch(/^12\/1\/2026,\s1:05:00\sPM$/);
    expect(
      await diff
        .getByRole('row', { name: /Starts On/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['11/27/2026', '12/1/2026']);
    await page.close();
  });

  it('the new-document form has no empty side panel; a stored document has its status and history there', async () => {
    const page = await newYorkPage('/studio/documents/event/new');
    await page.getByRole('heading', { name: 'New Event' }).waitFor();
    await page.getByRole('button', { name: 'Create' }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Document' }).count()).toBe(0);
    expect(await page.locator('.doc-side').count()).toBe(0);
    await screenshot(page, 'documents-new-form');

    await page.getByLabel('Title *').fill('Made here');
    await page.getByRole('button', { name: 'Create' }).click();
    const side = page.getByRole('complementary', { name: 'Document' });
    await side.getByRole('heading', { name: 'History' }).waitFor();
    await side.getByRole('heading', { name: 'Status' }).waitFor();
    await page.close();
  });
});
