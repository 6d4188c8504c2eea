import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// The studio edits a published document as its pending draft (docs/studio.md, "Drafts";
// docs/drafts.md): autosave, "Publish changes" with the diff and the unpublished references,
// "Discard changes", "Unpublish", a writer's drafts, the 412 dialog on autosave, the preview
// pane and the list's badge.
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

const schemas = (origin: string) => [
  { name: 'person', title: 'Person', public: true, fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'article',
    title: 'Article',
    public: true,
    fields: [
      { name: 'title', type: 'string', required: true, maxLength: 200 },
      { name: 'summary', type: 'text' },
      { name: 'writer', type: 'reference', to: 'person' },
    ],
    // A page this server serves: the frame's address is what the tests look at.
    preview: { url: `${origin}/api/health?article={_id}&preview={token}` },
  },
];

useBrowserApp(
  (origin: string) => ({ schemas: schemas(origin), ...MANY_SIGN_INS }),
  (app, token) => ((b = app), (admin = token)),
);
beforeAll(async () => {
  await createUser(b.t, admin, { username: 'wanda', password: PASSWORD, role: 'writer', permissions: [] });
});

const api = browserApi(
  () => b,
  () => admin,
).response;

async function publishedArticle(title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api('POST', '/documents/article', { title, ...extra, _status: 'published' });
  expect(res.status).toBe(201);
  return res.body.data._id as string;
}

/** The live version (anonymous, as the site reads it) and the draft (perspective=drafts). */
const live = async (id: string) => (await b.t.request({ method: 'GET', url: `/api/documents/article/${id}` })).json().data;
const drafted = async (id: string) => (await api('GET', `/collections/article/${id}?perspective=drafts`)).body.data;

async function open(path: string, username = ADMIN.username, password = ADMIN.password): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, username, password, path);
  return page;
}

const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });

describe('studio drafts of published documents', () => {
  it('autosaves a published article as its draft (the live text unchanged), marks it in the list, and publishes it after showing the diff', async () => {
    const id = await publishedArticle('Live title', { summary: 'Same summary' });
    const page = await open(`/studio/documents/article/${id}`);
    await page.getByText('Published — editing a draft').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await page.getByLabel('Title *').fill('Draft title');
    await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await saved(page).waitFor();
    await page.getByText('Unpublished changes').waitFor();

    expect(await live(id)).toMatchObject({ title: 'Live title', _rev: 1 });
    expect(await drafted(id)).toMatchObject({ title: 'Draft title', _version: 'draft', _status: 'published' });
    await expectAccessible(page, 'published document with a draft');
    await screenshot(page, 'documents-draft-editing');

    // The history lists the draft's save beside the published version.
    await page.getByRole('button', { name: 'Draft save 1' }).waitFor();
    await page.getByRole('button', { name: 'Revision 1' }).waitFor();

    // The list marks it.
    await page.goto(`${b.origin}/studio/documents/article`);
    const row = page.getByRole('row', { name: /Live title|Draft title/ });
    await row.getByText('Changed', { exact: true }).waitFor();
    await expectAccessible(page, 'list with a changed document');
    await row.getByRole('link').click();

    // Publish: the diff against what is live, the changed field only.
    await page.getByRole('button', { name: 'Publish changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes?' });
    await dialog.getByRole('row', { name: /Title\s+Live title\s+Draft title/ }).waitFor();
    expect(await dialog.getByRole('row', { name: /Summary/ }).count()).toBe(0);
    await expectAccessible(page, 'publish dialog');
    await screenshot(page, 'documents-draft-publish');
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await live(id)).title).toBe('Draft title');
    expect((await live(id))._rev).toBe(2);
    await page.getByText('Published — editing a draft').waitFor();
    expect(await page.getByRole('button', { name: 'Publish changes' }).isDisabled()).toBe(true);

    // Publishing before the autosave has run saves the form first.
    await page.getByLabel('Title *').fill('Second draft');
    await page.getByRole('button', { name: 'Publish changes' }).click();
    await dialog.getByRole('row', { name: /Title\s+Draft title\s+Second draft/ }).waitFor();
    expect(await drafted(id)).toMatchObject({ title: 'Second draft', _version: 'draft' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await live(id)).title).toBe('Draft title');
    await page.close();
  });

  it('discards the changes, then unpublishes (each asked first)', async () => {
    const id = await publishedArticle('Kept live');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Thrown away' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('Thrown away');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard changes?' });
    await expectAccessible(page, 'discard dialog');
    await discard.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('Kept live');
    expect(await drafted(id)).toMatchObject({ title: 'Kept live', _version: 'main' });

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('dialog', { name: 'Unpublish this document?' }).getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect((await api('GET', `/collections/article/${id}`)).body.data._status).toBe('draft');
    expect((await api('GET', `/collections/article/${id}?perspective=published`)).status).toBe(404);
    await page.close();
  });

  it('archives a published article with a pending draft: the form becomes the archived version and no draft is left', async () => {
    const id = await publishedArticle('Archived live');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Archived draft' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('Archived draft');
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Move to draft' }).waitFor();
    expect((await api('GET', `/collections/article/${id}`)).body.data).toMatchObject({ title: 'Archived draft', _status: 'archived' });
    expect(await drafted(id)).toMatchObject({ _version: 'main', _status: 'archived' });
    expect((await api('GET', `/collections/article/${id}?perspective=published`)).status).toBe(404);
    await page.close();
  });

  it('a writer saves a draft of a published article and sees who may publish instead of a publish button', async () => {
    const id = await publishedArticle('Writer reads live');
    const page = await open(`/studio/documents/article/${id}`, 'wanda', PASSWORD);
    const title = page.getByLabel('Title *');
    expect(await title.isDisabled()).toBe(false);
    await title.fill('Writer proposes');
    await saved(page).waitFor();
    expect(await drafted(id)).toMatchObject({ title: 'Writer proposes', _version: 'draft' });
    expect((await live(id)).title).toBe('Writer reads live');
    expect(await page.getByRole('button', { name: /publish/i }).count()).toBe(0);
    await page.getByText('Ask someone with publish permission on Article to publish them.').waitFor();
    // A writer may drop their own draft.
    await page.getByRole('button', { name: 'Discard changes' }).waitFor();
    await expectAccessible(page, 'published document as a writer');
    await screenshot(page, 'documents-draft-writer');
    await page.close();
  });

  it('an autosave after someone else saved the draft opens the 412 dialog; overwriting saves mine', async () => {
    const id = await publishedArticle('Contested');
    expect((await api('PATCH', `/documents/article/${id}`, { summary: 'second main revision' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await page.getByText('Published — editing a draft').waitFor();
    // Their save lands while mine waits for the autosave (unsaved here: nothing is replaced).
    await page.getByLabel('Title *').fill('Mine');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Theirs' })).status).toBe(200);
    await page.getByText('Someone else saved this document (draft revision 1) while you were editing it.').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Changed by someone else' });
    await dialog.waitFor();
    await expectAccessible(page, '412 dialog on autosave');
    await dialog.getByRole('button', { name: 'Overwrite with mine' }).click();
    await saved(page).waitFor();
    expect(await drafted(id)).toMatchObject({ title: 'Mine', _version: 'draft', _rev: 2 });
    expect((await live(id)).title).toBe('Contested');
    await page.close();
  });

  it('publishing a draft that references an unpublished document lists it, and "Publish them too" publishes both', async () => {
    const person = await api('POST', '/documents/person', { name: 'Unpublished Pat' });
    const personId = person.body.data._id as string;
    const id = await publishedArticle('Needs a writer');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { writer: personId })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await page.getByRole('button', { name: 'Publish changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes?' });
    const refs = dialog.getByRole('list', { name: 'Unpublished references' });
    await refs.getByRole('link', { name: 'Unpublished Pat (person)' }).waitFor();
    const publish = dialog.getByRole('button', { name: 'Publish', exact: true });
    expect(await publish.isDisabled()).toBe(true);
    await dialog.getByLabel('Publish them too').check();
    await expectAccessible(page, 'publish dialog with references');
    await publish.click();
    await dialog.waitFor({ state: 'detached' });
    expect((await live(id)).writer).toBe(personId);
    expect((await api('GET', `/collections/person/${personId}`)).body.data._status).toBe('published');
    await page.close();
  });

  it('the preview pane frames the preview URL with a token, reloaded after each autosave, with a link to open it', async () => {
    const id = await publishedArticle('Previewed');
    const page = await open(`/studio/documents/article/${id}`);
    const toggle = page.getByRole('button', { name: 'Preview page' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const frame = page.getByTitle('Preview of Previewed');
    await frame.waitFor();
    const first = (await frame.getAttribute('src')) ?? '';
    expect(first).toMatch(new RegExp(`^${b.origin}/api/health\\?article=${id}&preview=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(await page.getByRole('link', { name: 'Open preview in new tab' }).getAttribute('href')).toBe(first);
    // The token reads the draft.
    const token = new URL(first).searchParams.get('preview') ?? '';
    await page.getByLabel('Title *').fill('Previewed, changed');
    await saved(page).waitFor();
    await expect.poll(() => frame.getAttribute('src')).not.toBe(first);
    const again = await api('GET', `/documents/article/${id}?perspective=drafts`, undefined, token);
    expect(again.body.data).toMatchObject({ title: 'Previewed, changed', _version: 'draft' });
    await expectAccessible(page, 'preview pane');
    await screenshot(page, 'documents-draft-preview');
    await page.close();
  });
  it('the history lists the draft saves by kind; restoring a published version writes it into the draft, not the live version', async () => {
    const id = await publishedArticle('Version one');
    expect((await api('PATCH', `/documents/article/${id}`, { title: 'Version two' })).status).toBe(200);
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Draft words' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await page.getByRole('button', { name: 'Draft save 1' }).waitFor();
    await page.getByRole('button', { name: 'Revision 1' }).click();
    const diff = page.getByRole('region', { name: 'Changes since revision 1' });
    await diff.getByRole('row', { name: /Title\s+Version one\s+Draft words/ }).waitFor();
    await expectAccessible(page, 'history of a published document with a draft');
    await diff.getByRole('button', { name: 'Restore revision 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore revision 1?' });
    await confirm.getByText('written into the draft of this published document').waitFor();
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('Version one');
    expect(await drafted(id)).toMatchObject({ title: 'Version one', _version: 'draft', _rev: 2 });
    expect(await live(id)).toMatchObject({ title: 'Version two', _rev: 2 });
    await page.getByRole('button', { name: 'Draft save 2' }).waitFor();
    await page.close();
  });

  it("someone else's draft save and discard reach the open page: each loaded at once when nothing is unsaved here, and said", async () => {
    const id = await publishedArticle('Shared live');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Shared draft' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    const title = page.getByLabel('Title *');
    await expect.poll(() => title.inputValue()).toBe('Shared draft');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Their draft' })).status).toBe(200);
    await page.getByText('Someone else saved a newer version (draft revision 2); it is shown now.').waitFor();
    await expect.poll(() => title.inputValue()).toBe('Their draft');
    expect((await api('DELETE', `/documents/article/${id}/draft`)).status).toBe(200);
    await page.getByText('Someone else discarded the draft; the live version is shown now.').waitFor();
    await expect.poll(() => title.inputValue()).toBe('Shared live');
    await page.getByText('Published — editing a draft').waitFor();
    await page.close();
  });
  it('a draft made before the live version changed is refused as stale; "Publish anyway" publishes it', async () => {
    const id = await publishedArticle('Stale base');
    expect((await api('PATCH', `/documents/article/${id}?draft=true`, { title: 'Stale draft' })).status).toBe(200);
    expect((await api('PATCH', `/documents/article/${id}`, { summary: 'changed live meanwhile' })).status).toBe(200);
    const page = await open(`/studio/documents/article/${id}`);
    await page.getByRole('button', { name: 'Publish changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes?' });
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.getByText('The live version was changed after this draft was made.').waitFor();
    expect((await live(id)).title).toBe('Stale base');
    await expectAccessible(page, 'stale draft in the publish dialog');
    await dialog.getByRole('button', { name: 'Publish anyway' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await live(id)).toMatchObject({ title: 'Stale draft', _rev: 3 });
    await page.close();
  });
});
