import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { VellumClient, type Document } from '@vellum/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTo } from '../../packages/cli/src/transfer/export.js';
import { importFrom, type ImportSummary } from '../../packages/cli/src/transfer/import.js';
import type { DocumentLine, ExportLine, HeaderLine } from '../../packages/cli/src/transfer/transfer-format.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { EXAMPLE_LOCALES } from '../helpers/example-locales.js';

/**
 * `vellum export` / `vellum import` of localized content (docs/cli.md, "Export and import";
 * docs/localization.md): the file is version 3, names the locales, and holds every document,
 * revision and pending draft in the `locale=*` shape, so a round trip keeps each locale's
 * values, per-locale slugs and references held in a localized field.
 */
const SCHEMAS = [
  { name: 'author', title: 'Author', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true },
      { name: 'slug', type: 'slug', source: 'title', localized: true },
      { name: 'code', type: 'string' },
      { name: 'author', type: 'reference', to: 'author', localized: true },
      // A reference per locale to a later page: the import must find it inside `{<code>: id}` and hold it back.
      { name: 'related', type: 'reference', to: 'page', localized: true },
    ],
  },
];

interface Server {
  t: TestApp;
  client: VellumClient;
  mediaDir: string;
}

const servers: Server[] = [];

async function startServer(locales: Array<{ code: string; fallback?: string }> | undefined): Promise<Server> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-transfer-locales-'));
  // Without locales no field may be localized: the same types with shared fields.
  const shared = (f: Record<string, unknown>) => Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'localized'));
  const schemas = locales ? SCHEMAS : SCHEMAS.map((s) => ({ ...s, fields: s.fields.map(shared) }));
  const t = await startTestApp({ schemas, media: { dir: mediaDir }, ...(locales ? { locales } : {}) });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.server.address() as AddressInfo;
  const client = new VellumClient({ baseUrl: `http://127.0.0.1:${port}/api` });
  expect((await client.login(ADMIN.username, ADMIN.password)).kind).toBe('signedIn');
  const server = { t, client, mediaDir };
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const s of servers.splice(0)) {
    await s.t.close();
    rmSync(s.mediaDir, { recursive: true, force: true });
  }
});

async function exportText(from: Server): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportTo(from.client, out, { media: 'include' });
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

const importText = (into: Server, text: string): Promise<ImportSummary> => importFrom(into.client, Readable.from([Buffer.from(text)]));

const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExportLine);

const NOT_KEPT = ['_createdAt', '_updatedAt', '_createdBy', '_updatedBy'];

/** What must be equal on both sides: timestamps and the author of each write (the draft's too) are not kept. */
function view(d: Document): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(d).filter(([k]) => !NOT_KEPT.includes(k)));
  if (kept._draft) kept._draft = Object.fromEntries(Object.entries(kept._draft).filter(([k]) => !NOT_KEPT.includes(k)));
  return kept;
}

const allLocales = async (s: Server, type: string) =>
  (await s.client.list(type, { limit: 100, orderBy: '_createdAt', order: 'asc', locale: '*' })).data.map(view);

describe('export and import of localized content', () => {
  let source: Server;
  let text: string;
  let pageId: string;
  let laterAuthor: string;
  let secondId: string;

  beforeAll(async () => {
    source = await startServer(EXAMPLE_LOCALES);
    const authors = source.client.documents('author');
    const pages = source.client.documents('page');
    const anna = await authors.create({ name: 'Anna', _status: 'published' });
    const page = await pages.create({ title: 'Hello', code: 'p1', author: anna._id, _status: 'published' });
    pageId = page._id;
    // A second revision in German, then French: each revision holds every locale so far.
    await pages.patch(page._id, { title: 'Hallo Welt' }, { locale: 'de' });
    await pages.patch(page._id, { title: 'Bonjour' }, { locale: 'fr' });
    // A German-only reference.
    const bert = await authors.create({ name: 'Bert', _status: 'published' });
    laterAuthor = bert._id;
    await pages.patch(page._id, { author: bert._id }, { locale: 'de' });
    // A pending draft, in Swiss German.
    await pages.saveDraft(page._id, { title: 'Grüezi' }, { locale: 'de-CH' });
    const second = await pages.create({ title: 'Second', code: 'p2' }, { locale: 'en' });
    secondId = second._id;
    // A French reference forward: the second page comes after the first in the file.
    await pages.patch(page._id, { related: second._id }, { locale: 'fr' });
    text = await exportText(source);
  });

  it('writes a version 3 file naming the locales, with documents, revisions and drafts in the locale=* shape', () => {
    const all = lines(text);
    const header = all[0] as HeaderLine;
    expect(header).toMatchObject({ kind: 'vellum-export', version: 3, locales: ['en', 'de', 'de-CH', 'fr'] });
    const page = all.find((l): l is DocumentLine => l.kind === 'document' && l.document._id === pageId)!;
    expect(page.document).toMatchObject({
      _locale: '*',
      title: { en: 'Hello', de: 'Hallo Welt', fr: 'Bonjour' },
      slug: { en: { current: 'hello' }, de: { current: 'hallo-welt' }, fr: { current: 'bonjour' } },
      author: { de: laterAuthor },
      related: { fr: secondId },
      code: 'p1',
    });
    expect(page.revisions.map((r) => r.data.title)).toEqual([
      { en: 'Hello' },
      { en: 'Hello', de: 'Hallo Welt' },
      { en: 'Hello', de: 'Hallo Welt', fr: 'Bonjour' },
      { en: 'Hello', de: 'Hallo Welt', fr: 'Bonjour' },
    ]);
    expect(page.draft?.data).toMatchObject({ title: { en: 'Hello', de: 'Hallo Welt', 'de-CH': 'Grüezi', fr: 'Bonjour' } });
  });

  it('imports into a server with the same locales with every locale, revision and draft kept', async () => {
    const target = await startServer(EXAMPLE_LOCALES);
    const summary = await importText(target, text);
    expect(summary.failed).toEqual([]);
    expect(summary).toMatchObject({ created: 4, updated: 0, skipped: 0, drafts: { written: 1, skipped: 0 } });
    expect(await allLocales(target, 'page')).toEqual(await allLocales(source, 'page'));
    expect(await allLocales(target, 'author')).toEqual(await allLocales(source, 'author'));
    // Each locale's view is served as on the source, fallbacks included.
    const served = await target.client.documents('page').get(pageId, { locale: 'de-CH' });
    expect(served).toMatchObject({
      title: 'Hallo Welt',
      slug: { current: 'hallo-welt' },
      _locale: 'de-CH',
      _fallbacks: { title: 'de', slug: 'de' },
    });
    const draft = await target.client.documents('page').get(pageId, { locale: 'de-CH', perspective: 'drafts' });
    expect(draft).toMatchObject({ title: 'Grüezi', _version: 'draft' });
    const revisions = await target.client.documents('page').revisions(pageId, { locale: '*' });
    const sourceRevisions = await source.client.documents('page').revisions(pageId, { locale: '*' });
    expect(revisions.data.map((r) => r.data)).toEqual(sourceRevisions.data.map((r) => r.data));

    // Run again: nothing changes.
    const again = await importText(target, text);
    expect(again).toMatchObject({ created: 0, updated: 0, skipped: 4, failed: [], drafts: { written: 0, skipped: 1 } });
  });

  it('replaces a document whose other locale differs on the target, and keeps it equal after', async () => {
    const target = await startServer(EXAMPLE_LOCALES);
    await importText(target, text);
    await target.client.documents('page').patch(pageId, { title: 'Salut' }, { locale: 'fr' });
    const summary = await importText(target, text);
    expect(summary).toMatchObject({ updated: 1, skipped: 3, failed: [] });
    expect((await target.client.documents('page').get(pageId, { locale: 'fr' })).title).toBe('Bonjour');
  });

  it('refuses, importing nothing, a file with locales the target does not have', async () => {
    const fewer = await startServer([{ code: 'en' }, { code: 'de' }]);
    await expect(importText(fewer, text)).rejects.toThrow('the file holds content in locales the target does not have: de-CH, fr');
    const none = await startServer(undefined);
    await expect(importText(none, text)).rejects.toThrow('the target has none configured');
    expect((await fewer.client.list('page')).data).toEqual([]);
    expect((await none.client.list('page')).data).toEqual([]);
  });

  it('writes an export of a source without locales as version 2, imported into the default locale of a localized target', async () => {
    const plain = await startServer(undefined);
    const doc = await plain.client.documents('page').create({ title: 'Plain', code: 'x' });
    const plainText = await exportText(plain);
    expect(lines(plainText)[0]).toMatchObject({ version: 2 });
    expect(lines(plainText)[0]).not.toHaveProperty('locales');
    const target = await startServer(EXAMPLE_LOCALES);
    expect(await importText(target, plainText)).toMatchObject({ created: 1, failed: [] });
    expect(await target.client.documents('page').get(doc._id, { locale: '*' })).toMatchObject({ title: { en: 'Plain' }, code: 'x' });
  });
});
