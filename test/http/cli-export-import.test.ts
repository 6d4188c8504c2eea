import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VellumClient, type Document, type Media } from '@vellum/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * `vellum export` and `vellum import` as the real binary (a child process) between two servers on
 * two fresh databases: the exit codes, the summary and the progress lines of docs/cli.md; the
 * transfer itself is checked in depth by cli-transfer.test.ts.
 */

interface Server {
  t: TestApp;
  baseUrl: string;
  token: string;
  client: VellumClient;
  mediaDir: string;
}

async function startServer(schemas: object[] = TEST_SCHEMAS): Promise<Server> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-cli-transfer-media-'));
  const t = await startTestApp({ schemas, media: { dir: mediaDir } });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
  const token = await t.login(ADMIN.username, ADMIN.password);
  return { t, baseUrl, token, client: new VellumClient({ baseUrl, token }), mediaDir };
}

/**
 * A page builder (docs/api.md, "Blocks") whose blocks hold an image and references: the export
 * and import find them inside the blocks. `page` is listed first although it references `person`.
 */
const BLOCK_SCHEMAS = [
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true },
      {
        name: 'sections',
        type: 'blocks',
        of: [
          {
            name: 'hero',
            fields: [
              { name: 'heading', type: 'string' },
              { name: 'image', type: 'image' },
            ],
          },
          {
            name: 'quote',
            fields: [
              { name: 'text', type: 'text' },
              { name: 'author', type: 'reference', to: 'person' },
              { name: 'more', type: 'object', fields: [{ name: 'next', type: 'reference', to: 'page' }] },
            ],
          },
        ],
      },
    ],
  },
  { name: 'person', title: 'Person', fields: [{ name: 'name', type: 'string', required: true }] },
];

const view = (d: Document) =>
  Object.fromEntries(Object.entries(d).filter(([k]) => !['_createdAt', '_updatedAt', '_createdBy', '_updatedBy'].includes(k)));

describe('vellum export and vellum import (the real binary)', () => {
  let source: Server;
  let target: Server;
  let work: string;
  let configDir: string;
  let image: Media;

  const cli = (server: Server, args: string[], input?: string) =>
    runCli(args, { env: { VELLUM_URL: server.baseUrl, VELLUM_TOKEN: server.token, VELLUM_CONFIG_DIR: configDir }, input });

  beforeAll(async () => {
    assertCliBuilt();
    work = mkdtempSync(join(tmpdir(), 'vellum-cli-transfer-'));
    configDir = join(work, 'config');
    source = await startServer();
    target = await startServer();
    const c = source.client;
    image = await c.uploadMedia(new Blob([await png(200, 100)]), { filename: 'cover.png', alt: 'Cover' });
    await c.create('author', { _id: 'ada', name: 'Ada', _status: 'published' });
    await c.create('post', { _id: 'one', title: 'One', author: 'ada', cover: image._id, _status: 'published' });
    await c.create('post', { _id: 'two', title: 'Two', related: ['one'] });
    await c.patch('post', 'one', { related: ['two'] });
  });

  afterAll(async () => {
    for (const s of [source, target]) {
      await s?.t.close();
      if (s) rmSync(s.mediaDir, { recursive: true, force: true });
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('exports to a file, then imports it into an empty server: identical documents, references and media', async () => {
    const file = join(work, 'site.ndjson');
    const exported = await cli(source, ['export', '-o', file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toContain('exported post one\n');
    expect(exported.stderr).toContain(`Exported 3 documents (1 earlier revision) and 1 media file to ${file}.\n`);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)).toBe(
      JSON.stringify({ kind: 'end', counts: { media: 1, documents: 3, revisions: 1 } }),
    );

    const imported = await cli(target, ['import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('Documents: 3 created, 0 updated, 0 unchanged. Media: 1 uploaded, 0 unchanged. 0 failures.\n');
    expect(imported.stderr).toContain('deferred post one (references written later)\n');

    for (const type of ['author', 'post']) {
      const a = (await source.client.list(type, { orderBy: '_createdAt', order: 'asc' })).data;
      const b = (await target.client.list(type, { orderBy: '_createdAt', order: 'asc' })).data;
      expect(b.map(view)).toEqual(a.map(view));
    }
    const one = await target.client.get('post', 'one', 'author,related,cover');
    expect((one.author as Document).name).toBe('Ada');
    expect((one.related as Document[])[0]!.title).toBe('Two');
    expect((one.cover as Media).sha256).toBe(image.sha256);
    const copy = await target.client.getMedia(image._id);
    const [mine, theirs] = await Promise.all(
      [
        [source, image],
        [target, copy],
      ].map(async ([s, m]) => Buffer.from(await (await fetch(new URL((m as Media).url, (s as Server).baseUrl))).arrayBuffer())),
    );
    expect(theirs!.equals(mine!)).toBe(true);

    // Again: nothing to do, and the exit code says all is well.
    const again = await cli(target, ['import', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Documents: 0 created, 0 updated, 3 unchanged. Media: 0 uploaded, 1 unchanged. 0 failures.\n');
  });

  it('exports to stdout and imports from stdin', async () => {
    const exported = await cli(source, ['export', '--types', 'author', '--media', 'reference']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'vellum-export', types: ['author'], media: 'reference' });
    const imported = await cli(target, ['import', '-'], exported.stdout);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Documents: 0 created, 0 updated, 1 unchanged\. Media: 0 uploaded, 1 unchanged\./);
  });

  it('fails with a one-line message and its exit code: cut short 1, not an export 65, unknown type 64, unreadable file 66, no token 77', async () => {
    const whole = readFileSync(join(work, 'site.ndjson'), 'utf8');
    const cut = join(work, 'cut.ndjson');
    writeFileSync(cut, whole.slice(0, whole.lastIndexOf('{"kind":"end"')));
    const third = await startServer();
    try {
      const truncated = await cli(third, ['import', cut]);
      expect(truncated.code).toBe(1);
      expect(truncated.stdout).toMatch(/^Documents: 3 created/);
      expect(truncated.stderr.trimEnd().split('\n').at(-1)).toBe(
        'vellum: Import incomplete: the file ends before its trailer (it was cut short)',
      );
    } finally {
      await third.t.close();
    }

    const notExport = join(work, 'other.ndjson');
    writeFileSync(notExport, '{"hello":"world"}\n');
    const wrong = await cli(target, ['import', notExport]);
    expect([wrong.code, wrong.stderr]).toEqual([65, `vellum: ${notExport}: not a Vellum export (the first line is not its header)\n`]);

    const unknown = await cli(source, ['export', '--types', 'post,gadget', '-o', join(work, 'x.ndjson')]);
    expect([unknown.code, unknown.stderr]).toEqual([64, 'vellum: unknown type: gadget\n']);
    expect(existsSync(join(work, 'x.ndjson')) || existsSync(join(work, 'x.ndjson.partial'))).toBe(false);

    const missing = await cli(target, ['import', join(work, 'nope.ndjson')]);
    expect(missing.code).toBe(66);
    expect(missing.stderr).toMatch(/^vellum: cannot read .*nope\.ndjson: ENOENT/);

    const anonymous = await runCli(['import', join(work, 'site.ndjson')], {
      env: { VELLUM_URL: target.baseUrl, VELLUM_CONFIG_DIR: configDir },
    });
    expect(anonymous.code).toBe(77);
    // A token the server refuses stops the import at the first request that needs it.
    const refused = await runCli(['import', join(work, 'site.ndjson')], {
      env: { VELLUM_URL: target.baseUrl, VELLUM_TOKEN: 'vlm_not-a-token', VELLUM_CONFIG_DIR: configDir },
    });
    expect([refused.code, refused.stdout]).toEqual([77, '']);
    expect(refused.stderr.trimEnd().split('\n').at(-1)).toMatch(/^vellum: 401 UNAUTHORIZED: /);
  });
});

describe('vellum export and vellum import of blocks (the real binary)', () => {
  let source: Server;
  let target: Server;
  let work: string;

  const cli = (server: Server, args: string[]) =>
    runCli(args, { env: { VELLUM_URL: server.baseUrl, VELLUM_TOKEN: server.token, VELLUM_CONFIG_DIR: join(work, 'config') } });

  beforeAll(async () => {
    assertCliBuilt();
    work = mkdtempSync(join(tmpdir(), 'vellum-cli-transfer-blocks-'));
    source = await startServer(BLOCK_SCHEMAS);
    target = await startServer(BLOCK_SCHEMAS);
  });

  afterAll(async () => {
    for (const s of [source, target]) {
      await s?.t.close();
      if (s) rmSync(s.mediaDir, { recursive: true, force: true });
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps the references and the image inside blocks, a reference to a later document included', async () => {
    const c = source.client;
    const hero = await c.uploadMedia(new Blob([await png(120, 60)]), { filename: 'hero.png' });
    await c.create('person', { _id: 'ann', name: 'Ann', _status: 'published' });
    await c.create('page', {
      _id: 'home',
      title: 'Home',
      sections: [
        { _type: 'hero', _key: 'h1', heading: 'Welcome', image: hero._id },
        { _type: 'quote', _key: 'q1', text: 'Hello', author: 'ann' },
      ],
    });
    // A page created after home, then referenced from a block of home: a reference forward in the file.
    await c.create('page', { _id: 'about', title: 'About', sections: [{ _type: 'quote', _key: 'q2', author: 'ann' }] });
    await c.patch('page', 'home', {
      sections: [
        { _type: 'hero', _key: 'h1', heading: 'Welcome', image: hero._id },
        { _type: 'quote', _key: 'q1', text: 'Hello', author: 'ann', more: { next: 'about' } },
      ],
    });

    const file = join(work, 'blocks.ndjson');
    const exported = await cli(source, ['export', '-o', file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ types: ['person', 'page'] });

    const imported = await cli(target, ['import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('Documents: 3 created, 0 updated, 0 unchanged. Media: 1 uploaded, 0 unchanged. 0 failures.\n');
    expect(imported.stderr).toContain('deferred page home (references written later)\n');

    for (const type of ['person', 'page']) {
      const a = (await source.client.list(type, { orderBy: '_createdAt', order: 'asc' })).data;
      const b = (await target.client.list(type, { orderBy: '_createdAt', order: 'asc' })).data;
      expect(b.map(view)).toEqual(a.map(view));
    }
    const home = await target.client.get('page', 'home', 'sections.author');
    const [first, second] = home.sections as Array<Record<string, unknown>>;
    expect((second!.author as Document).name).toBe('Ann');
    expect(second!.more).toEqual({ next: 'about' });
    expect((await target.client.getMedia(first!.image as string)).sha256).toBe(hero.sha256);
  });
});
