import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The document pages (docs/studio.md, "Pages"): the list, the form generated from the schema,
// saving with If-Match and the 412 dialog, status changes, delete with its 409, revisions.
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

async function api(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await b.t.request({ method: method as 'GET', url: `/api${url}`, token: admin, payload: payload as object, headers });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

async function adminPage(path: string): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, ADMIN.username, ADMIN.password, path);
  return page;
}

const idFromUrl = (page: Page) => /\/documents\/\w+\/([\w.-]+)$/.exec(page.url())?.[1] ?? '';

describe('studio documents', () => {
  it('creates a post with a reference and an image, edits it with Ctrl+S, publishes it and deletes it (409 on the referenced author first)', async () => {
    const author = await api('POST', '/documents/author', { name: 'Ada Lovelace' });
    expect(author.status).toBe(201);
    const page = await adminPage('/studio/documents/post');
    await page.getByRole('heading', { name: 'Post' }).waitFor();
    await page.getByRole('button', { name: 'New Post' }).click();
    await page.getByRole('heading', { name: 'New Post' }).waitFor();

    await page.getByLabel('Title *').fill('Analytical engines');
    await page.getByLabel('Body').fill('# Notes\n\nSome **bold** words.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'Markdown preview' }).getByRole('heading', { name: 'Notes' }).waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Content' });
    await editor.click();
    await page.keyboard.type('Rich words');
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.getByRole('button', { name: 'Link' }).click();
    await page.getByLabel('Link address').fill('https://example.com/engines');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Category').selectOption('guide');
    await page.getByRole('button', { name: 'Add to Tags' }).click();
    await page.getByLabel('Tags 1', { exact: true }).fill('history');
    await page.getByRole('button', { name: 'Add to Tags' }).click();
    await page.getByLabel('Tags 2', { exact: true }).fill('machines');
    await page.getByRole('button', { name: 'Move Tags 2 up' }).click();
    await page.getByRole('button', { name: 'Choose Author' }).click();
    await page.getByLabel('Search Author').fill('ada');
    await page.getByRole('list', { name: 'Author results' }).getByRole('button', { name: 'Ada Lovelace' }).click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await page.getByLabel('Upload Cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await png(320, 200) });
    // The chosen image is shown as its focal-point picker, named by its file (docs/studio.md, "Form layout").
    await page.getByRole('link', { name: 'cover.png' }).waitFor();
    await page.getByLabel('Location latitude').fill('51.5');
    await page.getByLabel('Location longitude').fill('-0.12');
    await page.getByLabel('Title', { exact: true }).fill('SEO title'); // seo.title inside the object
    await page.getByLabel('Meta').fill('{"pages": 3}');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => idFromUrl(page)).toMatch(/^[\w-]{20,}$/);
    const id = idFromUrl(page);
    await page.getByText('revision 1', { exact: true }).waitFor();

    const created = await api('GET', `/collections/post/${id}`);
    expect(created.body.data).toMatchObject({
      title: 'Analytical engines',
      slug: { current: 'analytical-engines' },
      body: '# Notes\n\nSome **bold** words.',
      category: 'guide',
      tags: ['machines', 'history'],
      author: author.body.data._id,
      location: { lat: 51.5, lng: -0.12 },
      seo: { title: 'SEO title' },
      meta: { pages: 3 },
      _status: 'draft',
    });
    expect(created.body.data.content).toMatch(/<(b|strong)>.*Rich words.*<\/(b|strong)>/);
    expect(created.body.data.content).toContain('<a href="https://example.com/engines">');
    const cover = await api('GET', `/media/${created.body.data.cover}`);
    expect(cover.body.data.originalFilename).toBe('cover.png');

    // Edit, saved with Ctrl+S.
    await page.getByLabel('Title *').fill('Analytical engines, revised');
    await page.getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText('revision 2', { exact: true }).waitFor();
    expect((await api('GET', `/collections/post/${id}`)).body.data).toMatchObject({ title: 'Analytical engines, revised', _rev: 2 });

    // Publish.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    expect((await api('GET', `/collections/post/${id}`)).body.data._status).toBe('published');
    await expectAccessible(page, 'document edit page');
    await screenshot(page, 'documents-edit');

    // The list shows it with its badge; search and the reference filter find it.
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Post', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search Post' }).fill('analytical');
    const row = page.getByRole('row', { name: /Analytical engines, revised/ });
    await row.waitFor();
    expect(await row.getByText('published').count()).toBe(1);
    await page.getByLabel('Author', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    await row.waitFor();
    await expectAccessible(page, 'document list page');
    await screenshot(page, 'documents-list');

    // Deleting the author it references is refused with the list of referrers.
    await page.goto(`${b.origin}/studio/documents/author/${author.body.data._id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const referrers = page.getByRole('list', { name: 'Referenced by' });
    await referrers.getByRole('link', { name: 'Analytical engines, revised (post)' }).waitFor();
    await screenshot(page, 'documents-delete-referenced');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await api('GET', `/collections/author/${author.body.data._id}`)).status).toBe(200);

    // Deleting the post.
    await page.goto(`${b.origin}/studio/documents/post/${id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.url()).toBe(`${b.origin}/studio/documents/post`);
    expect((await api('GET', `/collections/post/${id}`)).status).toBe(404);
    await page.close();
  });

  it('a save after someone else changed the document opens the 412 dialog: reload theirs, or overwrite with mine', async () => {
    const doc = await api('POST', '/documents/post', { title: 'Shared draft' });
    const id = doc.body.data._id as string;
    const page = await adminPage(`/studio/documents/post/${id}`);
    const title = page.getByLabel('Title *');
    await title.fill('Mine');
    expect((await api('PATCH', `/documents/post/${id}`, { title: 'Theirs' })).status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Changed by someone else' });
    await dialog.waitFor();
    await expectAccessible(page, '412 dialog');
    await screenshot(page, 'documents-412');
    await dialog.getByRole('button', { name: 'Reload their version' }).click();
    await expect.poll(() => title.inputValue()).toBe('Theirs');

    await title.fill('Mine again');
    expect((await api('PATCH', `/documents/post/${id}`, { views: 7 })).status).toBe(200);
    await page.keyboard.press('Control+s');
    await dialog.getByRole('button', { name: 'Overwrite with mine' }).click();
    await page.getByText('revision 4', { exact: true }).waitFor();
    const stored = (await api('GET', `/collections/post/${id}`)).body.data;
    expect(stored).toMatchObject({ title: 'Mine again', _rev: 4 });
    expect(stored.views).toBeUndefined();
    await page.close();
  });

  it('shows the server validation errors on their fields, and asks before leaving with unsaved changes', async () => {
    const doc = await api('POST', '/documents/post', { title: 'Checked' });
    const id = doc.body.data._id as string;
    const page = await adminPage(`/studio/documents/post/${id}`);
    await page.getByLabel('Sku').fill('not valid');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Some fields need attention').waitFor();
    const sku = page.locator('[data-field="sku"]');
    expect(await sku.locator('.field-error').textContent()).toMatch(/pattern|match/i);
    expect(await page.getByLabel('Sku').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'documents-validation');

    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Author', exact: true }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toContain(`/documents/post/${id}`);
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Author', exact: true }).click();
    await leave.getByRole('button', { name: 'Leave and lose changes' }).click();
    await expect.poll(() => page.url()).toBe(`${b.origin}/studio/documents/author`);
    expect((await api('GET', `/collections/post/${id}`)).body.data.sku).toBeUndefined();
    await page.close();
  });

  it('shows the revision history with a diff, and restores a revision', async () => {
    const doc = await api('POST', '/documents/post', { title: 'First words', views: 1 });
    const id = doc.body.data._id as string;
    expect((await api('PATCH', `/documents/post/${id}`, { title: 'Second words', views: 2 })).status).toBe(200);
    const page = await adminPage(`/studio/documents/post/${id}`);
    await page.getByRole('button', { name: 'Revision 1' }).click();
    const diff = page.getByRole('region', { name: 'Changes since revision 1' });
    await diff.getByRole('row', { name: /Title\s+First words\s+Second words/ }).waitFor();
    await diff.getByRole('row', { name: /Views\s+1\s+2/ }).waitFor();
    await expectAccessible(page, 'revision history');
    await screenshot(page, 'documents-history');
    // Dark theme at tablet width: one column, contrast still checked by axe.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 820, height: 1100 });
    await expectAccessible(page, 'revision history, dark, tablet');
    await screenshot(page, 'documents-history-dark-tablet');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await diff.getByRole('button', { name: 'Restore revision 1' }).click();
    await page.getByRole('dialog', { name: 'Restore revision 1?' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByText('revision 3', { exact: true }).waitFor();
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('First words');
    expect((await api('GET', `/collections/post/${id}`)).body.data).toMatchObject({ title: 'First words', views: 1, _rev: 3 });
    await page.close();
  });

  it('a singleton opens its one document: the form creating it, then the document', async () => {
    const page = await adminPage('/studio/documents/site');
    await expect.poll(() => page.url()).toBe(`${b.origin}/studio/documents/site/new`);
    await page.getByLabel('Site name').fill('My site');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('revision 1', { exact: true }).waitFor();
    const id = idFromUrl(page);
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Site settings' }).click();
    await expect.poll(() => page.url()).toBe(`${b.origin}/studio/documents/site/${id}`);
    expect(await page.getByLabel('Site name').inputValue()).toBe('My site');
    await page.close();
  });

  it('pages, sorts and filters the list by a select field', async () => {
    for (let i = 1; i <= 23; i++)
      expect(
        (await api('POST', '/documents/company', { name: `Company ${String(i).padStart(2, '0')}`, country: i % 2 ? 'de' : 'fr' })).status,
      ).toBe(201);
    const page = await adminPage('/studio/documents/company?sort=name');
    await page.getByText('23 documents · page 1 of 2').waitFor();
    expect(await page.getByRole('row').nth(1).textContent()).toContain('Company 01');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('page 2 of 2').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(4); // header + 3
    await page.getByLabel('Sort by').selectOption('-name');
    await expect.poll(() => page.getByRole('row').nth(1).textContent()).toContain('Company 23');
    await page.getByLabel('Country').selectOption('fr');
    await page.getByText('11 documents · page 1 of 1').waitFor();
    await page.close();
  });
});
