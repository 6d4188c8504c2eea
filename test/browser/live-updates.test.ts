import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// Live updates (docs/studio.md, "Live updates"): the studio follows `GET /events`, so document
// lists show what another session writes, and the open document says when someone else changed
// it: loaded at once when nothing is unsaved, the user's choice when something is.
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = browserApi(
  () => b,
  () => admin,
).data;

async function adminPage(path: string): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, ADMIN.username, ADMIN.password, path);
  return page;
}

describe('studio live updates', () => {
  it('a document list shows documents another session creates, changes and deletes, without a reload', async () => {
    const page = await adminPage('/studio/documents/company');
    await page.getByRole('heading', { name: 'Company' }).waitFor();
    // The list is up before anything is written: what follows can only arrive through the stream.
    await page.getByRole('button', { name: 'New Company' }).waitFor();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));

    const made = await api('POST', '/documents/company', { name: 'Live Company' });
    await page.getByRole('row', { name: /Live Company/ }).waitFor();
    await api('PATCH', `/documents/company/${made._id}`, { name: 'Live Company, renamed' });
    await page.getByRole('row', { name: /Live Company, renamed/ }).waitFor();
    await screenshot(page, 'live-list');
    await api('DELETE', `/documents/company/${made._id}`);
    await expect.poll(() => page.getByRole('row', { name: /Live Company/ }).count()).toBe(0);
    expect(navigations).toEqual([]);
    await page.close();
  });

  it('the open document with nothing unsaved loads the newer version and says so', async () => {
    const doc = await api('POST', '/documents/company', { name: 'Quiet edit' });
    const page = await adminPage(`/studio/documents/company/${doc._id}`);
    const name = page.getByLabel('Name *');
    await expect.poll(() => name.inputValue()).toBe('Quiet edit');
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Changed elsewhere' });
    await expect.poll(() => name.inputValue()).toBe('Changed elsewhere');
    await page.getByText('Someone else saved a newer version (revision 2); it is shown now.').waitFor();
    await page.getByText('revision 2', { exact: true }).waitFor();
    await page.close();
  });

  it('with unsaved changes it asks: load their version, or keep editing mine (and the save then meets the 412 dialog)', async () => {
    const doc = await api('POST', '/documents/company', { name: 'Contested' });
    const page = await adminPage(`/studio/documents/company/${doc._id}`);
    const name = page.getByLabel('Name *');
    await expect.poll(() => name.inputValue()).toBe('Contested');
    await name.fill('Mine');
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Theirs' });
    const notice = page.getByRole('status').filter({ hasText: 'Someone else saved this document (revision 2) while you were editing it.' });
    await notice.waitFor();
    // Nothing was overwritten under the user's hands.
    expect(await name.inputValue()).toBe('Mine');
    await expectAccessible(page, 'outside change notice');
    await screenshot(page, 'live-outside-change');
    await notice.getByRole('button', { name: 'Keep editing mine' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Changed by someone else' }).getByRole('button', { name: 'Reload their version' }).click();
    await expect.poll(() => name.inputValue()).toBe('Theirs');

    // Again, and this time take theirs from the notice.
    await name.fill('Mine once more');
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Theirs again' });
    const again = page.getByRole('status').filter({ hasText: 'Someone else saved this document (revision 3)' });
    await again.getByRole('button', { name: 'Load their version' }).click();
    await expect.poll(() => name.inputValue()).toBe('Theirs again');
    await page.close();
  });

  it("the page's own saves and deletes are not someone else's; a delete elsewhere is", async () => {
    const doc = await api('POST', '/documents/company', { name: 'Own saves' });
    const page = await adminPage(`/studio/documents/company/${doc._id}`);
    const name = page.getByLabel('Name *');
    await expect.poll(() => name.inputValue()).toBe('Own saves');
    for (const value of ['First', 'Second', 'Third']) {
      await name.fill(value);
      await page.keyboard.press('Control+s');
      await page.getByText('Saved.').waitFor();
    }
    await page.getByText('revision 4', { exact: true }).waitFor();
    // The stream is alive (a change elsewhere arrives), and the own saves before it left no notice.
    await api('PATCH', `/documents/company/${doc._id}`, { country: 'fr' });
    await page.getByText('Someone else saved a newer version (revision 5); it is shown now.').waitFor();
    expect(await page.getByText(/while you were editing/).count()).toBe(0);

    await api('DELETE', `/documents/company/${doc._id}`);
    const gone = page.getByRole('status').filter({ hasText: 'Someone else deleted this document.' });
    await gone.waitFor();
    await gone.getByRole('button', { name: 'Back to the list' }).click();
    await page.getByRole('heading', { name: 'Company' }).waitFor();

    // Deleting it here goes to the list with no notice.
    const mine = await api('POST', '/documents/company', { name: 'Deleted here' });
    await page.goto(`${b.origin}/studio/documents/company/${mine._id}`);
    await expect.poll(() => name.inputValue()).toBe('Deleted here');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Company' }).waitFor();
    expect(await page.getByText('Someone else deleted this document.').count()).toBe(0);
    await page.close();
  });

  it("restoring a revision asks first, and is the page's own write: no 'someone else' notice; another's save after it still is", async () => {
    const doc = await api('POST', '/documents/company', { name: 'Restored here' });
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Renamed once' });
    const page = await adminPage(`/studio/documents/company/${doc._id}`);
    const name = page.getByLabel('Name *');
    await expect.poll(() => name.inputValue()).toBe('Renamed once');
    // Every "Someone else…" text the page ever shows, however briefly (a later notice replaces an earlier one).
    // (Page scripts as text: the tests are compiled without the DOM's types.)
    await page.evaluate(`(() => {
      const seen = [];
      window.seenNotices = seen;
      const note = () => {
        for (const m of document.body.innerText.match(/Someone else[^\\n]*/g) ?? []) if (!seen.includes(m)) seen.push(m);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    const seenNotices = () => page.evaluate('window.seenNotices');

    await page.getByRole('button', { name: 'Revision 1' }).click();
    const history = page.getByRole('region', { name: 'Changes since revision 1' });
    await history.getByRole('button', { name: 'Restore revision 1' }).click();
    const ask = page.getByRole('dialog', { name: 'Restore revision 1?' });
    await ask.getByText('The document gets the fields of revision 1 back as a new revision').waitFor();
    await expectAccessible(page, 'restore confirmation');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect((await api('GET', `/collections/company/${doc._id}`))._rev).toBe(2);

    await history.getByRole('button', { name: 'Restore revision 1' }).click();
    await ask.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('revision 3', { exact: true }).waitFor();
    await expect.poll(() => name.inputValue()).toBe('Restored here');
    await page.getByText('Revision 1 restored.').waitFor();

    // A save by someone else after it: its event follows the restore's on the stream, so once its
    // notice is up the restore's event has been judged too.
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Theirs after the restore' });
    await page.getByText('Someone else saved a newer version (revision 4); it is shown now.').waitFor();
    await expect.poll(() => name.inputValue()).toBe('Theirs after the restore');
    expect(await seenNotices()).toEqual(['Someone else saved a newer version (revision 4); it is shown now.']);
    await page.close();
  });

  it('when the server refuses presence on the stream (403), the studio opens it again without presence and still follows changes', async () => {
    const doc = await api('POST', '/documents/company', { name: 'No presence' });
    const page = await b.newPage();
    // Each event stream the page opens; those asking for presence are refused as a server would.
    const streams: URLSearchParams[] = [];
    await page.route(
      (url) => url.pathname === '/api/events',
      async (route) => {
        const query = new URL(route.request().url()).searchParams;
        streams.push(query);
        if (!query.has('presence')) return route.continue();
        await route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'presence refused' } }),
        });
      },
    );
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, `/studio/documents/company/${doc._id}`);
    const name = page.getByLabel('Name *');
    await expect.poll(() => name.inputValue()).toBe('No presence');
    // Asked with the document's presence, refused, then asked again without it.
    await expect.poll(() => streams.findIndex((q) => q.get('presence') === `company:${doc._id}`)).toBeGreaterThanOrEqual(0);
    const refused = streams.findIndex((q) => q.has('presence'));
    await expect.poll(() => streams.slice(refused + 1).some((q) => !q.has('presence') && q.get('events') === 'document.*')).toBe(true);
    // The stream it kept still brings another session's save into the page.
    await api('PATCH', `/documents/company/${doc._id}`, { name: 'Changed, no presence' });
    await expect.poll(() => name.inputValue()).toBe('Changed, no presence');
    expect(streams.filter((q) => q.has('presence')).length).toBe(1);
    await page.close();
  });
});
