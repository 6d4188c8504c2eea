import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { typeCheckFiles } from '../helpers/type-check.js';

/**
 * `vellum types` (docs/cli.md, "Types") end to end: the real binary reads a started server's
 * schemas, and its output type-checks with `tsc` against the typed client, the way a user plugs
 * it in: `client.documents<Post>('post')`.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let t: TestApp;
let url: string;
let dir: string;

beforeAll(async () => {
  assertCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'vellum-cli-types-'));
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Type-checks the files strict, with `@vellum/client` resolved to the built client's declarations. */
const typeCheck = (files: string[]) =>
  typeCheckFiles(files, {
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    paths: { '@vellum/client': [join(ROOT, 'packages/client/dist/index.d.ts')] },
  });

describe('vellum types', () => {
  it('writes the interfaces of the server schemas, and they compile against the client', async () => {
    const out = join(dir, 'vellum-types.ts');
    const run = await runCli(['types', '-o', out, '--url', url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`wrote ${TEST_SCHEMAS.length} schema types to ${out}\n`);
    expect(readFileSync(out, 'utf8')).toContain('export interface Post');
    const usage = join(dir, 'usage.ts');
    writeFileSync(
      usage,
      `import { VellumClient } from '@vellum/client';
import type { Post } from './vellum-types';

export async function newest(client: VellumClient): Promise<string[]> {
  const posts = client.documents<Post>('post');
  const page = await posts.query().where('category', 'in', ['news', 'guide']).where('views', 'gt', 10).orderBy('-_createdAt').limit(5).page();
  const created = await posts.create({ title: 'Hello', category: 'news' });
  // @ts-expect-error: not a field of Post
  posts.query().where('nope', 'eq', 1);
  // @ts-expect-error: not one of the select's options
  await posts.patch(created._id, { category: 'sports' });
  return page.data.map((p) => p.title);
}
`,
    );
    expect(typeCheck([out, usage])).toEqual([]);
  });

  it('with locales, adds VellumLocale, Localized<T> and each localized type’s locale=* shape (docs/localization.md)', async () => {
    const localized = await startTestApp({
      locales: [{ code: 'en' }, { code: 'de-CH' }],
      schemas: [
        {
          name: 'page',
          title: 'Page',
          fields: [
            { name: 'title', type: 'string', required: true, localized: true },
            { name: 'tags', type: 'array', of: { type: 'string' }, localized: true },
            { name: 'code', type: 'string' },
          ],
        },
        { name: 'tag', title: 'Tag', fields: [{ name: 'name', type: 'string' }] },
      ],
    });
    try {
      await localized.app.server.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(localized.app.server.server.address() as AddressInfo).port}/api`;
      const out = join(dir, 'localized-types.ts');
      const run = await runCli(['types', '-o', out, '--url', at]);
      expect(run.code, run.stderr).toBe(0);
      const source = readFileSync(out, 'utf8');
      expect(source).toContain(`export type VellumLocale = "en" | "de-CH";`);
      expect(source).toContain('export type PageAllLocales = Omit<Page, "title" | "tags"> & {');
      // A type without localized fields has no second shape.
      expect(source).not.toContain('TagAllLocales');
      const usage = join(dir, 'localized-usage.ts');
      writeFileSync(
        usage,
        `import type { Localized, Page, PageAllLocales } from './localized-types';

export function titles(one: Page, all: PageAllLocales): string[] {
  const swiss: Localized<string[]> | undefined = all.tags;
  const marker: string | undefined = one._locale;
  // @ts-expect-error: not a configured locale
  const none = all.title?.fr;
  return [one.title, all.title?.en ?? '', all.title?.['de-CH'] ?? '', all.code ?? '', String(swiss), String(marker), String(none)];
}
`,
      );
      expect(typeCheck([out, usage])).toEqual([]);
    } finally {
      await localized.close();
    }
  });
});
