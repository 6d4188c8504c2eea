import type { AddressInfo } from 'node:net';
import { VellumClient } from '@vellum/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { EXAMPLE_LOCALES } from '../helpers/example-locales.js';

/**
 * The client with content locales (docs/client.md, "Locales"; docs/localization.md): `locale` on
 * reads and writes, and the query builder's `locale()` and `untranslated()`.
 */
let t: TestApp;
let client: VellumClient;

beforeAll(async () => {
  t = await startTestApp({
    locales: EXAMPLE_LOCALES,
    schemas: [{ name: 'page', title: 'Page', fields: [{ name: 'title', type: 'string', required: true, localized: true, indexed: true }] }],
  });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.server.address() as AddressInfo;
  client = new VellumClient({ baseUrl: `http://127.0.0.1:${port}/api` });
  expect((await client.login(ADMIN.username, ADMIN.password)).kind).toBe('signedIn');
});

afterAll(() => t.close());

describe('the client in a content locale', () => {
  it('writes one locale or all, reads through the chain, and queries with locale() and untranslated()', async () => {
    const pages = client.documents('page');
    const apple = await pages.create({ title: { en: 'Apple', de: 'Apfel' } }, { locale: '*' });
    const pear = await pages.create({ title: 'Pear' });
    await pages.patch(pear._id, { title: 'Birne' }, { locale: 'de' });
    await pages.patch(pear._id, { title: 'Bire' }, { locale: 'de-CH' });

    expect(await pages.get(apple._id, { locale: 'de-CH' })).toMatchObject({
      title: 'Apfel',
      _fallbacks: { title: 'de' },
      _untranslated: ['title'],
    });
    expect((await pages.get(pear._id, { locale: '*' })).title).toEqual({ en: 'Pear', de: 'Birne', 'de-CH': 'Bire' });

    const inSwissGerman = await pages.query().locale('de-CH').orderBy('title').page();
    expect(inSwissGerman.data.map((d) => d.title)).toEqual(['Apfel', 'Bire']);
    const found = await pages.query().locale('de-CH').where('title', 'eq', 'Apfel').page();
    expect(found.data.map((d) => d._id)).toEqual([apple._id]);
    const todo = await pages.query().untranslated('de-CH').page();
    expect(todo.data.map((d) => d._id)).toEqual([apple._id]);
    const list = await pages.list({ locale: 'de', orderBy: 'title', order: 'desc' });
    expect(list.data.map((d) => d.title)).toEqual(['Birne', 'Apfel']);
  });
});
