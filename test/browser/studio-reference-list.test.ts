import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { dragTo, expectAccessible, keyboardMove, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// Arrays of references and blocks in the studio's form (docs/studio.md, "Pages"; issue 29, item 3):
// tags chosen through a search combobox, shown as chips, removed, reordered by pointer and by
// keyboard (dnd-kit: space, arrow, space), blocks reordered the same way, and character counts
// under fields with maxLength; saved and read back through the API, at 1440 and 390 px, axe clean.
const SCHEMAS = [
  { name: 'tag', title: 'Tag', fields: [{ name: 'title', type: 'string', required: true }] },
  {
    name: 'article',
    title: 'Article',
    fields: [
      { name: 'title', type: 'string', required: true, maxLength: 60 },
      { name: 'summary', type: 'text', maxLength: 20 },
      { name: 'tags', type: 'array', of: { type: 'reference', to: 'tag' }, maxItems: 4 },
      {
        name: 'sections',
        type: 'blocks',
        of: [
          { name: 'hero', title: 'Hero', fields: [{ name: 'heading', type: 'string' }] },
          { name: 'quote', title: 'Quote', fields: [{ name: 'text', type: 'text' }] },
        ],
      },
    ],
  },
];
const TAGS = ['JavaScript', 'TypeScript', 'Rust', 'Python', 'Go'];
// Each test walks through the whole form (about 15 s alone), twice the usual budget for a busy machine.
const LONG = 60_000;

let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await b.t.request({ method, url: `/api${url}`, token: admin, payload });
  return res.json();
};
const idFromUrl = (page: Page) => /\/documents\/\w+\/([\w.-]+)$/.exec(page.url())?.[1] ?? '';
const names = (list: Locator) => list.getByRole('listitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

/** The text that describes a control (`aria-describedby`), as a screen reader reads it with the control. */
async function description(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

describe('studio reference lists, sortable blocks and character counts', () => {
  it(
    'adds tags by search, removes and reorders them by pointer and keyboard, reorders blocks, counts characters; saved in that order',
    async () => {
      const ids: Record<string, string> = {};
      for (const title of TAGS) ids[title] = (await api('POST', '/collections/tag', { title })).data._id;

      const page = await b.newPage();
      await page.setViewportSize({ width: 1440, height: 1000 });
      await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/article/new');
      await page.getByRole('heading', { name: 'New Article' }).waitFor();

      // Character counts: linked to the control, marked and spelled out past the limit.
      const title = page.getByLabel('Title *');
      await title.fill('Typed languages');
      await page.getByText('15 / 60').waitFor();
      expect(await description(title)).toContain('15 of 60 characters');
      const summary = page.getByLabel('Summary');
      await summary.fill('Far more than twenty characters');
      await page.getByText(', 11 too many').waitFor();
      expect(await description(summary)).toContain('31 of 20 characters, 11 too many');
      await expect.poll(() => page.locator('.char-count.over').count()).toBe(1);

      // Tags: the combobox lists the latest tags; a click adds one, the list stays open for the next.
      const tags = page.getByRole('list', { name: 'Tags' });
      const combo = page.getByRole('combobox', { name: 'Add to Tags' });
      const results = page.getByRole('listbox', { name: 'Tags results' });
      await combo.click();
      await results.getByRole('option', { name: 'JavaScript' }).click();
      await results.getByRole('option', { name: 'TypeScript' }).click();
      expect(await results.getByRole('option', { name: 'JavaScript' }).getAttribute('aria-selected')).toBe('true');
      expect(await results.getByRole('option', { name: 'Rust' }).getAttribute('aria-selected')).toBe('false');
      await expectAccessible(page, 'reference combobox open, two chosen');
      await screenshot(page, 'reference-list-combobox-1440');

      // Typing searches; the keyboard adds (arrows move through the results, Enter picks).
      await combo.fill('rust');
      await expect.poll(() => results.getByRole('option').allTextContents()).toEqual(['Rust']);
      await combo.press('Enter');
      await combo.fill('python');
      await expect.poll(() => results.getByRole('option').allTextContents()).toEqual(['Python']);
      await combo.press('ArrowDown');
      await combo.press('Enter');
      await expect.poll(() => names(tags)).toEqual(['JavaScript', 'TypeScript', 'Rust', 'Python']);
      // Four is `maxItems`: what is not chosen cannot be added.
      await combo.fill('');
      await results.getByRole('option', { name: 'Go' }).waitFor();
      expect(await results.getByRole('option', { name: 'Go' }).getAttribute('aria-disabled')).toBe('true');
      await combo.press('Escape');
      await results.waitFor({ state: 'hidden' });

      // Remove one; the chip links to its document.
      await page.getByRole('button', { name: 'Remove TypeScript' }).click();
      await expect.poll(() => names(tags)).toEqual(['JavaScript', 'Rust', 'Python']);
      expect(await tags.getByRole('link', { name: 'Rust' }).getAttribute('href')).toBe(`/studio/documents/tag/${ids.Rust}`);

      // Pointer: Python's handle dropped on JavaScript's puts it first.
      await dragTo(page, page.getByRole('button', { name: 'Reorder Python' }), page.getByRole('button', { name: 'Reorder JavaScript' }));
      await expect.poll(() => names(tags)).toEqual(['Python', 'JavaScript', 'Rust']);

      // Keyboard: Rust one place to the left.
      await keyboardMove(page, 'Reorder Rust', [['ArrowLeft', 'Rust is over position 2 of 3.']]);
      await expect.poll(() => names(tags)).toEqual(['Python', 'Rust', 'JavaScript']);
      await page.getByText('Rust was dropped at position 2 of 3.', { exact: true }).waitFor({ state: 'attached' });
      expect(await page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toBe('Reorder Rust');

      // Blocks go through the same sortable list.
      const sections = page.getByRole('list', { name: 'Sections' });
      await page.getByRole('button', { name: 'Add Hero to Sections' }).click();
      await page.getByLabel('Hero 1 Heading').fill('Welcome');
      await page.getByRole('button', { name: 'Add Quote to Sections' }).click();
      await page.getByLabel('Quote 2 Text').fill('Wise words');
      await keyboardMove(page, 'Reorder Quote 2', [['ArrowUp', 'Quote 2 is over position 1 of 2.']]);
      await expect.poll(() => names(sections)).toEqual(['Quote 1', 'Hero 2']);
      await expectAccessible(page, 'chips reordered, blocks reordered, a count over its limit');
      await screenshot(page, 'reference-list-1440');

      // The server refuses the over-long summary (422 on the field); shortened, the document saves.
      await page.getByRole('button', { name: 'Create' }).click();
      await page.locator('[data-field="summary"] .field-error').waitFor();
      await summary.fill('Short enough');
      await page.getByText('12 / 20').waitFor();
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => idFromUrl(page)).toMatch(/^[\w-]{20,}$/);
      const saved = (await api('GET', `/collections/article/${idFromUrl(page)}`)).data;
      expect(saved.tags).toEqual([ids.Python, ids.Rust, ids.JavaScript]);
      expect(saved.sections.map((s: { _type: string }) => s._type)).toEqual(['quote', 'hero']);
    },
    LONG,
  );

  it(
    'at 390 px the chips wrap inside the form, the search adds, a chip moves by keyboard; saved in that order',
    async () => {
      const ids: Record<string, string> = {};
      for (const title of TAGS) ids[title] = (await api('POST', '/collections/tag', { title: `${title} 390` })).data._id;
      const tagIds = [ids.Python, ids.Rust, ids.JavaScript];
      const article = (await api('POST', '/collections/article', { title: 'Small screens', tags: tagIds })).data;

      const page = await b.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, b.origin, ADMIN.username, ADMIN.password, `/studio/documents/article/${article._id}`);
      const tags = page.getByRole('list', { name: 'Tags' });
      const combo = page.getByRole('combobox', { name: 'Add to Tags' });
      const results = page.getByRole('listbox', { name: 'Tags results' });
      await expect.poll(() => names(tags)).toEqual(['Python 390', 'Rust 390', 'JavaScript 390']);
      await page.getByText('13 / 60').waitFor();

      await combo.fill('go');
      await results.getByRole('option', { name: 'Go 390' }).click();
      await expect.poll(() => names(tags)).toEqual(['Python 390', 'Rust 390', 'JavaScript 390', 'Go 390']);
      expect(await tags.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(await page.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`)).toBe(true);
      await expectAccessible(page, 'reference list at 390 px, combobox open');
      await screenshot(page, 'reference-list-390');

      await combo.press('Escape');
      await page.getByRole('button', { name: 'Remove JavaScript 390' }).click();
      await keyboardMove(page, 'Reorder Rust 390', [['ArrowLeft', 'Rust 390 is over position 1 of 3.']]);
      await expect.poll(() => names(tags)).toEqual(['Rust 390', 'Python 390', 'Go 390']);
      await expectAccessible(page, 'reference list at 390 px, reordered');
      await page.keyboard.press('Control+s');
      await page.getByText('revision 2', { exact: true }).waitFor();
      expect((await api('GET', `/collections/article/${article._id}`)).data.tags).toEqual([ids.Rust, ids.Python, ids.Go]);
    },
    LONG,
  );
});
