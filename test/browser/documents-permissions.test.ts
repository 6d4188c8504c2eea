import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The document pages as the roles of the spec allow them (docs/api.md, "Permissions"): a writer
// edits drafts, and proposes changes to published documents as their pending drafts, but sees no
// publish button; a viewer reads and cannot edit.
let b: BrowserApp;
let admin: string;
const PASSWORD = 'browser-password-1';

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));
beforeAll(async () => {
  await createUser(b.t, admin, { username: 'wanda', password: PASSWORD, role: 'writer', permissions: [] });
  await createUser(b.t, admin, { username: 'victor', password: PASSWORD, role: 'viewer', permissions: [] });
});

async function createPost(title: string, status = 'draft'): Promise<string> {
  const res = await b.t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title, _status: status } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data._id as string;
}
const stored = async (id: string) => (await b.t.request({ method: 'GET', url: `/api/collections/post/${id}`, token: admin })).json().data;

async function open(username: string, path: string): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, username, PASSWORD, path);
  return page;
}

describe('studio documents and permissions', () => {
  it('a writer edits and saves a draft but sees no publish or delete button, and is told why', async () => {
    const id = await createPost('Writer draft');
    const page = await open('wanda', `/studio/documents/post/${id}`);
    await page.getByLabel('Title *').fill('Writer draft, edited');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('revision 2', { exact: true }).waitFor();
    expect(await stored(id)).toMatchObject({ title: 'Writer draft, edited', _status: 'draft' });
    expect(await page.getByRole('button', { name: /publish/i }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByText('Publishing and unpublishing need the content:publish permission.').waitFor();
    await page.getByText('Deleting needs the content:delete permission.').waitFor();
    await expectAccessible(page, 'document page as a writer');
    await screenshot(page, 'documents-writer');

    // A published post: the writer's changes go to its pending draft (docs/drafts.md); the live
    // version stays as it was, and publishing is left to someone with the permission.
    const live = await createPost('Live post', 'published');
    await page.goto(`${b.origin}/studio/documents/post/${live}`);
    await page.getByText('Ask someone with publish permission on', { exact: false }).waitFor();
    expect(await page.getByLabel('Title *').isDisabled()).toBe(false);
    await page.getByLabel('Title *').fill('Live post, proposed');
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(await stored(live)).toMatchObject({ title: 'Live post', _status: 'published', _rev: 1 });
    const draft = (await b.t.request({ method: 'GET', url: `/api/collections/post/${live}?perspective=drafts`, token: admin })).json().data;
    expect(draft).toMatchObject({ title: 'Live post, proposed', _version: 'draft', _updatedBy: expect.any(String) });
    expect(await page.getByRole('button', { name: 'Archive' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /publish/i }).count()).toBe(0);
    await page.close();
  });

  it('a viewer reads a document but cannot edit it: fields disabled, no save, no actions, no "New" button', async () => {
    const id = await createPost('Viewer reads this');
    const page = await open('victor', '/studio/documents/post');
    await page.getByRole('link', { name: 'Viewer reads this' }).waitFor();
    expect(await page.getByRole('button', { name: /^New/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Viewer reads this' }).click();
    await page.getByText('You can read this document; editing needs the content:write permission.').waitFor();
    expect(await page.getByLabel('Title *').inputValue()).toBe('Viewer reads this');
    expect(await page.getByLabel('Title *').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    for (const name of ['Publish', 'Archive', 'Delete']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    // Ctrl+S does nothing either.
    await page.keyboard.press('Control+s');
    expect((await stored(id))._rev).toBe(1);
    await expectAccessible(page, 'document page as a viewer');
    await screenshot(page, 'documents-viewer');
    await page.close();
  });
});
