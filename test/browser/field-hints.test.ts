import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { signIn, type BrowserApp } from '../helpers/browser.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The form's controls follow the studio hints of GET /config/schemas (docs/api.md, "Schemas"),
// not a copy of the field-type table: the one-line input's type, the number step, a media
// field's default accept, and a new item of a list of objects (an object to fill in).
let b: BrowserApp;
let admin: string;

const SCHEMAS = [
  {
    name: 'event',
    title: 'Event',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'contact', type: 'email' },
      { name: 'website', type: 'url' },
      { name: 'startsOn', type: 'date' },
      { name: 'price', type: 'number' },
      { name: 'seats', type: 'integer' },
      { name: 'poster', type: 'image' },
      { name: 'brochure', type: 'file' },
      { name: 'talks', type: 'array', of: { type: 'object', fields: [{ name: 'speaker', type: 'string' }] } },
    ],
  },
];

useBrowserApp({ schemas: SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

describe('studio controls from the field hints', () => {
  it('gives each control the input type, step and accept its hints name, and fills new items of a list of objects', async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/event/new');
    await page.getByRole('heading', { name: 'New Event' }).waitFor();

    const typeOf = (label: string) => page.getByLabel(label, { exact: true }).getAttribute('type');
    expect(await typeOf('Title *')).toBe('text');
    expect(await typeOf('Contact')).toBe('email');
    expect(await typeOf('Website')).toBe('url');
    expect(await typeOf('Starts On')).toBe('date');
    expect(await page.getByLabel('Seats', { exact: true }).getAttribute('step')).toBe('1');
    expect(await page.getByLabel('Price', { exact: true }).getAttribute('step')).toBe('any');
    expect(await page.getByLabel('Upload Poster').getAttribute('accept')).toBe('image/*');
    expect(await page.getByLabel('Upload Brochure').getAttribute('accept')).toBeNull();

    await page.getByLabel('Title *').fill('Launch');
    await page.getByRole('button', { name: 'Add to Talks' }).click();
    await page.getByRole('group', { name: 'Talks 1' }).getByLabel('Speaker').fill('Ada');
    await page.getByRole('button', { name: 'Add to Talks' }).click();
    await page.getByRole('group', { name: 'Talks 2' }).getByLabel('Speaker').fill('Grace');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => /\/documents\/event\/([\w-]{20,})$/.exec(page.url())?.[1]).toBeTruthy();
    const id = /\/documents\/event\/([\w-]+)$/.exec(page.url())?.[1];
    const res = await b.t.request({ method: 'GET', url: `/api/documents/event/${id}`, token: admin });
    expect(res.json().data.talks).toEqual([{ speaker: 'Ada' }, { speaker: 'Grace' }]);
    await page.close();
  });
});
