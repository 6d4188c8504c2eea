import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { EXAMPLE_LOCALES } from '../helpers/example-locales.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';
import { browserApi } from '../helpers/browser-api.js';

// The studio with content locales (docs/studio.md, "Locales"; docs/localization.md): the locale
// switcher kept in the address, the default locale's value beside the field being translated,
// fallbacks greyed with the locale they come from, saves that write only the locale shown (a
// draft too), and the list's translation column and "Missing translations" filter.
let b: BrowserApp;
let admin: string;

const SCHEMAS = [
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true },
      { name: 'slug', type: 'slug', source: 'title', localized: true },
      { name: 'summary', type: 'text', localized: true },
      { name: 'code', type: 'string' },
    ],
  },
];

useBrowserApp({ schemas: SCHEMAS, locales: EXAMPLE_LOCALES, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = browserApi(
  () => b,
  () => admin,
).response;

async function adminPage(path: string): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, ADMIN.username, ADMIN.password, path);
  return page;
}

async function createPage(body: Record<string, unknown>, status = 'draft'): Promise<string> {
  const res = await api('POST', '/documents/page?locale=*', { ...body, _status: status });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

const allLocales = async (id: string) => (await api('GET', `/collections/page/${id}?locale=*`)).body.data;

describe('studio with content locales', () => {
  it('translates a document: switcher in the address, the default value beside the field, a fallback greyed, a save of that locale only', async () => {
    const id = await createPage({ title: { en: 'Opening hours', de: 'Öffnungszeiten' }, summary: { en: 'When we are open' }, code: 'p1' });
    const page = await adminPage(`/studio/documents/page/${id}`);
    await page.getByRole('heading', { name: 'Opening hours' }).waitFor();

    // Swiss German: the title falls back to German, shown greyed and named as such.
    await page.getByLabel('Content locale').selectOption('de-CH');
    await expect.poll(() => new URL(page.url()).searchParams.get('locale')).toBe('de-CH');
    await page.getByText(/^Not translated into de-CH: readers get the de value\W*Öffnungszeiten/).waitFor();
    expect(await page.getByLabel('Title *').inputValue()).toBe('');
    // The summary has no German either: the default locale's value is shown, not translated yet.
    await page.getByText('Not translated yet. English (en):').waitFor();
    await expectAccessible(page, 'document edit page in a locale');
    await screenshot(page, 'documents-locale-edit');

    await page.getByLabel('Title *').fill('Öffnigsziite');
    await page.getByLabel('Summary').fill('Wänn mir offe händ');
    // "Generate" applies the server's slug rule with the locale's (German: ö → oe).
    await page.getByRole('button', { name: 'Generate from title' }).click();
    expect(await page.getByLabel('Slug').inputValue()).toBe('oeffnigsziite');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('revision 2', { exact: true }).waitFor();
    // Once translated, the default locale's value is what is shown beside it.
    await page.locator('.locale-note:not(.is-fallback)').first().waitFor();
    expect(await allLocales(id)).toMatchObject({
      title: { en: 'Opening hours', de: 'Öffnungszeiten', 'de-CH': 'Öffnigsziite' },
      summary: { en: 'When we are open', 'de-CH': 'Wänn mir offe händ' },
      slug: { 'de-CH': { current: 'oeffnigsziite' } },
      code: 'p1',
    });

    // A reload keeps the locale; the default locale's form is untouched.
    await page.reload();
    expect(await page.getByLabel('Title *').inputValue()).toBe('Öffnigsziite');
    await page.getByLabel('Content locale').selectOption('en');
    await expect.poll(() => new URL(page.url()).searchParams.get('locale')).toBe(null);
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe('Opening hours');
    expect(await page.locator('.locale-note').count()).toBe(0);
  });

  it('asks before switching locale with unsaved changes', async () => {
    const id = await createPage({ title: { en: 'Prices' }, code: 'p2' });
    const page = await adminPage(`/studio/documents/page/${id}?locale=fr`);
    await page.getByLabel('Title *').fill('Prix');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByLabel('Content locale').selectOption('de');
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).searchParams.get('locale')).toBe('fr');
    expect(await page.getByLabel('Title *').inputValue()).toBe('Prix');
  });

  it('edits a published document’s draft in a locale, leaving the live version and the other locales alone', async () => {
    const id = await createPage({ title: { en: 'News', fr: 'Nouvelles' }, code: 'p3' }, 'published');
    const page = await adminPage(`/studio/documents/page/${id}?locale=fr`);
    expect(await page.getByLabel('Title *').inputValue()).toBe('Nouvelles');
    await page.getByLabel('Title *').fill('Actualités');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await expect
      .poll(async () => (await api('GET', `/collections/page/${id}?locale=*&perspective=drafts`)).body.data.title)
      .toEqual({ en: 'News', fr: 'Actualités' });
    expect((await api('GET', `/documents/page/${id}?locale=fr`)).body.data.title).toBe('Nouvelles');
  });

  it('lists in a locale with a translation column and a filter for missing translations', async () => {
    await createPage({ title: { en: 'Team', de: 'Team', 'de-CH': 'Team' }, summary: { en: 'Who', de: 'Wer', 'de-CH': 'Wär' }, code: 'l1' });
    await createPage({ title: { en: 'Jobs', de: 'Stellen' }, summary: { en: 'Open positions' }, code: 'l2' });
    const page = await adminPage('/studio/documents/page');
    await page.getByRole('heading', { name: 'Page' }).waitFor();
    await page.getByLabel('Content locale').selectOption('de-CH');
    // The title through the chain: Jobs is listed by its German title.
    const jobs = page.getByRole('row', { name: /Stellen/ });
    await jobs.getByText('Missing: Title, Slug, Summary').waitFor();
    await page.getByRole('row', { name: /Team/ }).getByText('Translated').waitFor();
    // The box follows the address (`?untranslated=1`), which the router updates after the click:
    // click, then wait for both, rather than `check()`, which looks the instant the click is done.
    const missing = page.getByLabel('Missing translations');
    await missing.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('untranslated')).toBe('1');
    await expect.poll(() => missing.isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /Team/ }).count()).toBe(0);
    await jobs.waitFor();
    await expectAccessible(page, 'document list in a locale');
    await screenshot(page, 'documents-locale-list');
    // The row opens the document in the same locale.
    await jobs.getByRole('link', { name: 'Stellen' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('locale')).toBe('de-CH');
    await page.getByText(/^Not translated into de-CH: readers get the de value\W*Stellen/).waitFor();
  });
});
