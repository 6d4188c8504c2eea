import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { dragTo, expectAccessible, keyboardMove, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The studio's blocks control (docs/studio.md, "Pages"; docs/api.md, "Blocks"): add blocks of
// each type, reorder them by keyboard and by pointer, collapse, remove, save, and find them so
// after a reload. A plain array's items reorder the same way.
const SCHEMAS = [
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true },
      {
        name: 'sections',
        type: 'blocks',
        of: [
          { name: 'hero', title: 'Hero', fields: [{ name: 'heading', type: 'string', required: true }] },
          { name: 'quote', fields: [{ name: 'text', type: 'text', required: true }] },
        ],
      },
      { name: 'keywords', type: 'array', of: { type: 'string' } },
    ],
  },
];

let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

const idFromUrl = (page: Page) => /\/documents\/\w+\/([\w.-]+)$/.exec(page.url())?.[1] ?? '';
const blockNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Sections' })
    .getByRole('listitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

describe('studio blocks field', () => {
  it('adds, reorders by keyboard and pointer, collapses and removes blocks; they are saved and come back after a reload', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/page');
    await page.getByRole('button', { name: 'New Page' }).click();
    await page.getByRole('heading', { name: 'New Page' }).waitFor();
    await page.getByLabel('Title *').fill('Landing');

    await page.getByRole('button', { name: 'Add Hero to Sections' }).click();
    await page.getByLabel('Hero 1 Heading').fill('Welcome');
    await page.getByRole('button', { name: 'Add Quote to Sections' }).click();
    await page.getByLabel('Quote 2 Text').fill('Wise words');
    expect(await blockNames(page)).toEqual(['Hero 1', 'Quote 2']);

    // Keyboard: space picks the focused handle's block up, the arrow moves it, space drops it; focus stays with the block.
    // Each key waits for what the list announces, as a screen reader user hears it before the next.
    await keyboardMove(page, 'Reorder Quote 2', [['ArrowUp', 'Quote 2 is over position 1 of 2.']]);
    await expect.poll(() => blockNames(page)).toEqual(['Quote 1', 'Hero 2']);
    expect(await page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toBe('Reorder Quote 1');

    // Pointer: the hero's handle dropped on the quote puts it first again.
    await dragTo(page, page.getByRole('button', { name: 'Reorder Hero 2' }), page.getByRole('listitem', { name: 'Quote 1' }));
    await expect.poll(() => blockNames(page)).toEqual(['Hero 1', 'Quote 2']);
    await expect.poll(() => page.getByLabel('Hero 1 Heading').inputValue()).toBe('Welcome');

    // Collapse hides a block's fields and keeps its values.
    await page.getByRole('button', { name: 'Collapse Hero 1' }).click();
    await page.getByLabel('Hero 1 Heading').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Expand Hero 1' }).waitFor();

    // A third block, removed again.
    await page.getByRole('button', { name: 'Add Hero to Sections' }).click();
    await page.getByLabel('Hero 3 Heading').fill('Gone soon');
    await page.getByRole('button', { name: 'Remove Hero 3' }).click();
    expect(await blockNames(page)).toEqual(['Hero 1', 'Quote 2']);
    await expectAccessible(page, 'blocks field');
    await screenshot(page, 'blocks-field');

    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => idFromUrl(page)).toMatch(/^[\w-]{20,}$/);
    const res = await b.t.request({ method: 'GET', url: `/api/collections/page/${idFromUrl(page)}`, token: admin });
    const sections = res.json().data.sections as Array<Record<string, unknown>>;
    expect(sections).toEqual([
      { _type: 'hero', _key: expect.stringMatching(/^[A-Za-z0-9_-]+$/), heading: 'Welcome' },
      { _type: 'quote', _key: expect.stringMatching(/^[A-Za-z0-9_-]+$/), text: 'Wise words' },
    ]);

    await page.reload();
    await page.getByRole('button', { name: 'Reorder Quote 2' }).waitFor();
    expect(await blockNames(page)).toEqual(['Hero 1', 'Quote 2']);
    expect(await page.getByLabel('Hero 1 Heading').inputValue()).toBe('Welcome');
    expect(await page.getByLabel('Quote 2 Text').inputValue()).toBe('Wise words');

    // Saving again keeps the keys the blocks were created with.
    await page.getByLabel('Quote 2 Text').fill('Wiser words');
    await page.keyboard.press('Control+s');
    await page.getByText('revision 2', { exact: true }).waitFor();
    const saved = await b.t.request({ method: 'GET', url: `/api/collections/page/${idFromUrl(page)}`, token: admin });
    expect(saved.json().data.sections.map((s: { _key: string }) => s._key)).toEqual(sections.map((s) => s._key));
    expect(saved.json().data.sections[1].text).toBe('Wiser words');
  });

  it('a plain array’s items reorder by their handle too, by keyboard and by pointer, and are saved in that order', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/page');
    await page.getByRole('button', { name: 'New Page' }).click();
    await page.getByLabel('Title *').fill('Keyworded');
    for (const [i, word] of ['alpha', 'beta', 'gamma'].entries()) {
      await page.getByRole('button', { name: 'Add to Keywords' }).click();
      await page.getByLabel(`Keywords ${i + 1}`, { exact: true }).fill(word);
    }
    const values = () => Promise.all([1, 2, 3].map((i) => page.getByLabel(`Keywords ${i}`, { exact: true }).inputValue()));

    // Keyboard: gamma goes to the top; focus stays on its handle, now the first.
    await keyboardMove(page, 'Reorder Keywords 3', [
      ['ArrowUp', 'Keywords 3 is over position 2 of 3.'],
      ['ArrowUp', 'Keywords 3 is over position 1 of 3.'],
    ]);
    await expect.poll(values).toEqual(['gamma', 'alpha', 'beta']);
    expect(await page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toBe('Reorder Keywords 1');

    // Pointer: the last dropped on the first.
    const items = page.getByRole('list', { name: 'Keywords' }).getByRole('listitem');
    await dragTo(page, page.getByRole('button', { name: 'Reorder Keywords 3' }), items.first());
    await expect.poll(values).toEqual(['beta', 'gamma', 'alpha']);
    // The buttons still move and remove.
    await page.getByRole('button', { name: 'Move Keywords 1 down' }).click();
    await expect.poll(values).toEqual(['gamma', 'beta', 'alpha']);
    await expectAccessible(page, 'a plain array with handles');

    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => idFromUrl(page)).toMatch(/^[\w-]{20,}$/);
    const res = await b.t.request({ method: 'GET', url: `/api/collections/page/${idFromUrl(page)}`, token: admin });
    expect(res.json().data.keywords).toEqual(['gamma', 'beta', 'alpha']);
    await page.close();
  });
});
