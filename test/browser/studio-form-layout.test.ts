import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { VellumClient } from '../../packages/client/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { png } from '../helpers/media-fixtures.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The document form's layout and its image field (docs/studio.md, "Form layout"): the schema's
// groups as tabs, a tab marked when a 422 names a field in it, fields hidden or read-only by a
// rule on other fields, descriptions as help; an image dropped or pasted on its field, its alt
// text edited in place and its focal point set by a click. At 1440 and 390 px, axe on each state.
let b: BrowserApp;
let admin: string;
let api: VellumClient;
const PASSWORD = 'browser-password-1';

const SCHEMAS = [
  {
    name: 'clip',
    title: 'Clip',
    groups: [
      { name: 'main', title: 'Main' },
      { name: 'media', title: 'Media' },
      { name: 'seo', title: 'SEO' },
    ],
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'kind', type: 'select', options: ['text', 'video'], description: 'What the clip holds.' },
      { name: 'videoUrl', type: 'url', title: 'Video URL', hidden: { not: { field: 'kind', eq: 'video' } } },
      { name: 'featured', type: 'boolean', description: 'Shown on the home page.' },
      { name: 'cover', type: 'image', group: 'media', description: 'Shown on cards.' },
      { name: 'metaTitle', type: 'string', group: 'seo', required: true },
      {
        name: 'canonical',
        type: 'string',
        group: 'seo',
        readOnly: { field: 'kind', eq: 'video' },
        description: 'Set by the site for videos.',
      },
    ],
  },
];

useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));
beforeAll(async () => {
  api = new VellumClient({ baseUrl: `${b.origin}/api`, token: admin });
  await createUser(b.t, admin, { username: 'wendy', password: PASSWORD, role: 'viewer', permissions: ['clip:read', 'clip:write'] });
});

async function open(width: number, path: string, username = ADMIN.username, password = ADMIN.password): Promise<Page> {
  const page = await b.newPage();
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, b.origin, username, password, path);
  return page;
}

/** The files as a DataTransfer made in the page, as a drop carries them. */
async function transfer(page: Page, name: string, bytes: Buffer) {
  return page.evaluateHandle(
    ({ name, base64 }) => {
      // This runs in the page; the test files have no DOM types.
      const w = globalThis as unknown as PageGlobals;
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([Uint8Array.from(w.atob(base64), (c) => c.charCodeAt(0))], name, { type: 'image/png' }));
      return dt;
    },
    { name, base64: bytes.toString('base64') },
  );
}

/** The few browser globals the page-side functions use. */
interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: Uint8Array[], name: string, opts: { type: string }) => unknown;
  Blob: new (parts: Uint8Array[], opts: { type: string }) => unknown;
  ClipboardItem: new (items: Record<string, unknown>) => unknown;
  navigator: { clipboard: { write(items: unknown[]): Promise<void> } };
  atob(data: string): string;
}

describe.each([1440, 390])('studio form layout at %i px', (width) => {
  it('shows groups as tabs, marks the tab of a 422, and follows hidden and readOnly rules', async () => {
    const page = await open(width, '/studio/documents/clip/new');
    await page.getByRole('heading', { name: 'New Clip' }).waitFor();
    const tabs = page.getByRole('tablist', { name: 'Field groups' });
    const tab = (name: string | RegExp) => tabs.getByRole('tab', { name });
    expect(await tab('Main').getAttribute('aria-selected')).toBe('true');
    expect(await tabs.getByRole('tab').count()).toBe(3);
    // Fields without a group are in the first tab; the others' panels are hidden.
    await page.getByLabel('Title *', { exact: true }).waitFor();
    expect(await page.getByLabel('Meta Title *', { exact: true }).isVisible()).toBe(false);
    // Descriptions are help, read with their control.
    expect(await page.getByLabel('Kind', { exact: true }).getAttribute('aria-describedby')).toBeTruthy();
    await expect.poll(() => page.getByLabel('Featured').evaluate((el) => el.getAttribute('aria-describedby'))).toBeTruthy();
    await page.getByText('Shown on the home page.').waitFor();

    // Video URL shows once Kind is video; canonical (SEO) turns read-only then.
    expect(await page.getByLabel('Video URL').count()).toBe(0);
    await page.getByLabel('Title *', { exact: true }).fill(`Launch ${width}`);
    await page.getByLabel('Kind', { exact: true }).selectOption('video');
    await page.getByLabel('Video URL').fill('https://example.com/launch.mp4');
    await expectAccessible(page, `form tabs, video fields (${width})`);

    // A 422 on a field of another tab marks that tab.
    await page.getByRole('button', { name: 'Create' }).click();
    await tab(/^SEO.*1 field needs attention/).waitFor();
    expect(await tab(/^Main/).textContent()).toBe('Main');
    await page.getByText('Some fields need attention.').waitFor();
    await page.getByText('See the marked tabs: SEO.').waitFor();
    await expectAccessible(page, `form tabs with a 422 marker (${width})`);
    if (width === 1440) await screenshot(page, 'studio-form-tabs-422');

    // The arrow keys move between tabs (the ARIA tabs pattern) and show the one reached.
    await tab(/^Main/).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await tab(/^SEO/).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Meta Title *', { exact: true }).waitFor();
    expect(await page.getByLabel('Canonical').isDisabled()).toBe(true);
    await page.getByText('Set by the site for videos.').waitFor();
    await expectAccessible(page, `SEO tab with a read-only field (${width})`);
    await page.getByLabel('Meta Title *', { exact: true }).fill('Launch');
    // Back to text: the video URL is hidden (its value kept), canonical editable again.
    await tab(/^Main/).click();
    await page.getByLabel('Kind', { exact: true }).selectOption('text');
    expect(await page.getByLabel('Video URL').count()).toBe(0);
    await tab(/^SEO/).click();
    expect(await page.getByLabel('Canonical').isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/studio\/documents\/clip\/(?!new)[^/]+$/);
    expect(await tab('SEO').count()).toBe(1);
    const id = decodeURIComponent(page.url().split('/').pop()!);
    // Conditions shape the form only: the hidden field's value was kept and saved.
    expect(await api.collections('clip').get(id)).toMatchObject({
      kind: 'text',
      videoUrl: 'https://example.com/launch.mp4',
      metaTitle: 'Launch',
    });
    await page.close();
  });

  it('takes a dropped or pasted image, edits its alt text in place and sets its focal point by a click', async () => {
    const doc = await api.collections('clip').create({ title: `Images ${width}`, metaTitle: 'Images' });
    const page = await open(width, `/studio/documents/clip/${doc._id}`);
    await page.getByRole('tablist', { name: 'Field groups' }).getByRole('tab', { name: 'Media' }).click();
    const cover = page.getByRole('group', { name: 'Cover' });
    await cover.getByText('Shown on cards.').waitFor();
    await cover.getByText('Drop a file here, or paste one', { exact: false }).waitFor();
    await expectAccessible(page, `empty image field (${width})`);

    // Dropped: uploaded, and the field holds it.
    const dropped = await transfer(page, `dropped-${width}.png`, await png(900, 500, { r: 200, g: 60, b: 60 }));
    const zone = cover.locator('.media-drop');
    for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer: dropped });
    const picker = cover.getByRole('button', { name: /^Focal point: not set/ });
    await picker.waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await api.collections('clip').get(doc._id)).cover).toBeTruthy();
    const mediaId = String((await api.collections('clip').get(doc._id)).cover);
    expect((await api.getMedia(mediaId)).originalFilename).toBe(`dropped-${width}.png`);

    // Alt text, saved to the media record when the box is left.
    await cover.getByLabel('Alt text of Cover').fill('A red square');
    await page.keyboard.press('Tab');
    await cover.getByText('Alt text saved.').waitFor();
    expect((await api.getMedia(mediaId)).alt).toBe('A red square');

    // The focal point where the click lands.
    const box = (await picker.boundingBox())!;
    await picker.click({ position: { x: Math.round(box.width * 0.25) + 0.5, y: Math.round(box.height * 0.75) + 0.5 } });
    await cover.getByText('Focal point saved.').waitFor();
    const point = (await api.getMedia(mediaId)).focalPoint!;
    expect(point.x).toBeCloseTo(0.25, 1);
    expect(point.y).toBeCloseTo(0.75, 1);
    await expectAccessible(page, `image field with alt text and focal point (${width})`);
    if (width === 1440) await screenshot(page, 'studio-image-field');

    // Pasted while focus is in the field: an image copied to the system clipboard, then Ctrl+V as
    // a person presses it (the browser makes the paste event and its file). Uploaded, and it
    // replaces the image.
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.origin });
    await page.evaluate(
      async (base64) => {
        const w = globalThis as unknown as PageGlobals;
        const blob = new w.Blob([Uint8Array.from(w.atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
        await w.navigator.clipboard.write([new w.ClipboardItem({ 'image/png': blob })]);
      },
      (await png(400, 400)).toString('base64'),
    );
    await cover.getByRole('button', { name: 'Choose from library' }).focus();
    await page.keyboard.press('Control+V');
    await cover.getByRole('button', { name: /^Focal point: not set/ }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await api.collections('clip').get(doc._id)).cover).not.toBe(mediaId);
    const pasted = await api.getMedia(String((await api.collections('clip').get(doc._id)).cover));
    expect(pasted).toMatchObject({ mimeType: 'image/png', width: 400, height: 400 });
    await page.close();
  });
});

describe('studio image field without media permissions', () => {
  it('shows no drop target, and the image without editing its alt text or focal point', async () => {
    const media = await api.uploadMedia(new Blob([await png(300, 200)], { type: 'image/png' }), { filename: 'given.png' });
    await api.updateMedia(media._id, { alt: 'A given picture' });
    const doc = await api.collections('clip').create({ title: 'Given', metaTitle: 'Given', cover: media._id });
    const page = await open(1440, `/studio/documents/clip/${doc._id}`, 'wendy', PASSWORD);
    await page.getByRole('tablist', { name: 'Field groups' }).getByRole('tab', { name: 'Media' }).click();
    const cover = page.getByRole('group', { name: 'Cover' });
    await cover.getByText('Alt text: A given picture').waitFor();
    expect(await cover.getByText('Drop a file here', { exact: false }).count()).toBe(0);
    expect(await cover.locator('.media-drop').count()).toBe(0);
    expect(await cover.getByLabel('Upload Cover').count()).toBe(0);
    expect(await cover.getByRole('button', { name: /^Focal point/ }).count()).toBe(0);
    expect(await cover.getByLabel('Alt text of Cover').count()).toBe(0);
    await expectAccessible(page, 'image field without media permissions');
    await page.close();
  });
});
