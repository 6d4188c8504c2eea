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
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.at(-1)).toBe(JSON.stringify({ kind: 'end', counts: { media: 1, documents: 3, revisions: 1, drafts: 0, schedules: 0 } }));
    // What the file holds is counted before its first line: an import has its totals from the start.
    expect(JSON.parse(lines[0]!).contents).toEqual({ media: 1, documents: { author: 1, post: 2, company: 0, secret: 0, site: 0 } });

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

  it('--json prints the summaries as JSON on stdout; an export to stdout takes no --json', async () => {
    const file = join(work, 'json.ndjson');
    const exported = await cli(source, ['export', '-o', file, '--json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({ file, counts: { media: 1, documents: 3, revisions: 1, drafts: 0, schedules: 0 } });
    expect(exported.stderr).not.toContain('Exported');
    const imported = await cli(target, ['import', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({
      complete: true,
      created: 0,
      updated: 0,
      skipped: 3,
      failed: [],
      media: { uploaded: 0, skipped: 1 },
      versionsLeftOut: 0,
      drafts: { written: 0, skipped: 0 },
      schedules: { created: 0, skipped: 0 },
      schedulesLeftOut: [],
    });
    const cut = join(work, 'json-cut.ndjson');
    const whole = readFileSync(file, 'utf8');
    writeFileSync(cut, whole.slice(0, whole.lastIndexOf('{"kind":"end"')));
    const incomplete = await cli(target, ['import', cut, '--json']);
    expect(incomplete.code).toBe(1);
    expect(JSON.parse(incomplete.stdout)).toMatchObject({
      complete: false,
      skipped: 3,
      incomplete: 'Import incomplete: the file ends before its trailer (it was cut short)',
    });
    const toStdout = await cli(source, ['export', '--json']);
    expect([toStdout.code, toStdout.stdout, toStdout.stderr]).toEqual([
      64,
      '',
      'vellum: --json needs -o FILE: without it the export itself is written to stdout\n',
    ]);
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

  it('checks the permissions the file needs before writing anything: exit 77 with one line naming what is missing', async () => {
    const file = join(work, 'site.ndjson');
    const as = (token: string) =>
      runCli(['import', file], { env: { VELLUM_URL: target.baseUrl, VELLUM_TOKEN: token, VELLUM_CONFIG_DIR: configDir } });
    const third = await startServer();
    try {
      const writer = await third.t.userToken('writer');
      const refused = await runCli(['import', file], {
        env: { VELLUM_URL: third.baseUrl, VELLUM_TOKEN: writer, VELLUM_CONFIG_DIR: configDir },
      });
      expect([refused.code, refused.stdout]).toEqual([77, '']);
      expect(refused.stderr).toBe(
        'vellum: cannot import: the credential lacks content:publish (sign in with vellum login as a user who holds them, ' +
          'or pass a --token that has them); nothing was written\n',
      );
      // Publishing one type only, and no media rights: each missing one named.
      const partly = await third.t.userToken('viewer', ['content:write', 'author:publish']);
      const named = await runCli(['import', file], {
        env: { VELLUM_URL: third.baseUrl, VELLUM_TOKEN: partly, VELLUM_CONFIG_DIR: configDir },
      });
      expect(named.code).toBe(77);
      expect(named.stderr).toMatch(/^vellum: cannot import: the credential lacks post:publish, media:upload \(/);
      // Nothing was written.
      expect((await third.client.list('author')).meta.total + (await third.client.list('post')).meta.total).toBe(0);
      expect((await third.client.listMedia()).meta.total).toBe(0);
    } finally {
      await third.t.close();
    }
    // An author holds all of it: the same file imports (unchanged here).
    const author = await target.t.userToken('author');
    const ok = await as(author);
    expect(ok.code, ok.stderr).toBe(0);
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

describe('vellum export and vellum import of pending drafts and schedules (the real binary)', () => {
  let source: Server;
  let target: Server;
  let work: string;
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const later = inDays(1);
  const muchLater = inDays(2);
  const past = '2001-01-01T00:00:00.000Z';

  const cli = (server: Server, args: string[]) =>
    runCli(args, { env: { VELLUM_URL: server.baseUrl, VELLUM_TOKEN: server.token, VELLUM_CONFIG_DIR: join(work, 'config') } });
  const pendingSchedules = async (s: Server) =>
    (await s.client.schedules.list({ status: 'pending', limit: 100 })).data.map((x) => ({
      type: x.type,
      documentId: x.documentId,
      action: x.action,
      at: x.at,
    }));

  beforeAll(async () => {
    assertCliBuilt();
    work = mkdtempSync(join(tmpdir(), 'vellum-cli-transfer-drafts-'));
    source = await startServer();
    target = await startServer();
    const posts = source.client.documents('post');
    await posts.create({ _id: 'live', title: 'Live', _status: 'published' });
    await posts.create({ _id: 'later', title: 'Later', _status: 'published' });
    await posts.create({ _id: 'planned', title: 'Planned' });
    await posts.create({ _id: 'soon', title: 'Soon' });
    // The draft references a document after it in the file: it waits for it.
    await posts.saveDraft('live', { title: 'Live, next', related: ['later'] });
    await posts.schedule('live', { action: 'unpublish', at: muchLater });
    await posts.schedule('planned', { action: 'publish', at: later });
    await posts.schedule('soon', { action: 'publish', at: later });
    const cancelled = await posts.schedule('later', { action: 'unpublish', at: later });
    await source.client.schedules.cancel(cancelled.id);
  });

  afterAll(async () => {
    for (const s of [source, target]) {
      await s?.t.close();
      if (s) rmSync(s.mediaDir, { recursive: true, force: true });
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('carries each pending draft and pending schedule; one whose time has passed is left out and named', async () => {
    const file = join(work, 'site.ndjson');
    const exported = await cli(source, ['export', '--types', 'post', '-o', file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('Exported 4 documents (0 earlier revisions) and 0 media files to');
    expect(exported.stderr).toContain('With 1 pending draft and 3 pending schedules.\n');
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ kind: 'vellum-export', version: 2 });
    const live = lines.find((l) => l.kind === 'document' && (l.document as Document)._id === 'live')!;
    expect(live.draft).toEqual({ _rev: 1, data: { title: 'Live, next', slug: { current: 'live' }, featured: false, related: ['later'] } });
    expect(lines.filter((l) => l.kind === 'schedule').map((l) => (l.schedule as { documentId: string }).documentId)).toEqual([
      'planned',
      'soon',
      'live',
    ]);
    expect(lines.at(-1)).toEqual({ kind: 'end', counts: { media: 0, documents: 4, revisions: 0, drafts: 1, schedules: 3 } });

    // The time of one schedule passes before the import runs (written so in the file: the source refuses a past one).
    const edited = join(work, 'edited.ndjson');
    writeFileSync(edited, readFileSync(file, 'utf8').replace(/("documentId":"soon","action":"publish","at":")[^"]+"/, `$1${past}"`));
    const imported = await cli(target, ['import', edited]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      'Documents: 4 created, 0 updated, 0 unchanged. Media: 0 uploaded, 0 unchanged. 0 failures.\n' +
        'Drafts: 1 written, 0 unchanged. Schedules: 2 created, 0 unchanged, 1 left out (their time has passed).\n' +
        `  left out schedule publish post soon at ${past}: its time has passed\n`,
    );
    expect(imported.stderr).toContain(`left out schedule publish post soon at ${past}: its time has passed\n`);
    expect(imported.stderr).toContain('written draft of post live\n');

    const posts = target.client.documents('post');
    expect(await posts.get('live')).toMatchObject({ title: 'Live', _status: 'published', _draft: { _rev: 1 } });
    expect(await posts.get('live', { perspective: 'drafts', expand: 'related' })).toMatchObject({
      _version: 'draft',
      title: 'Live, next',
      related: [{ _id: 'later', title: 'Later' }],
    });
    // The draft is based on the imported main version: it publishes without force.
    expect(await posts.publishPlan('live')).toEqual({ publish: [{ type: 'post', id: 'live' }], blockedBy: [] });
    expect(await pendingSchedules(target)).toEqual([
      { type: 'post', documentId: 'planned', action: 'publish', at: later },
      { type: 'post', documentId: 'live', action: 'unpublish', at: muchLater },
    ]);

    // Again: nothing is written twice, and no schedule is made twice.
    const again = await cli(target, ['import', edited]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.split('\n').slice(0, 2)).toEqual([
      'Documents: 0 created, 0 updated, 4 unchanged. Media: 0 uploaded, 0 unchanged. 0 failures.',
      'Drafts: 0 written, 1 unchanged. Schedules: 0 created, 2 unchanged, 1 left out (their time has passed).',
    ]);
    expect(await pendingSchedules(target)).toHaveLength(2);
    expect((await posts.revisions('live', { kind: 'draft' })).meta.total).toBe(1);
  });

  it('a version 1 export (before drafts and schedules) still imports, with the summary it always had', async () => {
    const file = join(work, 'v1.ndjson');
    const v1 = [
      {
        kind: 'vellum-export',
        version: 1,
        exportedAt: new Date().toISOString(),
        source: source.baseUrl,
        types: ['author'],
        media: 'include',
      },
      { kind: 'document', type: 'author', document: { _id: 'old', _status: 'published', _rev: 1, name: 'Old' }, revisions: [] },
      { kind: 'end', counts: { media: 0, documents: 1, revisions: 0 } },
    ];
    writeFileSync(file, v1.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const imported = await cli(target, ['import', file]);
    expect([imported.code, imported.stdout]).toEqual([
      0,
      'Documents: 1 created, 0 updated, 0 unchanged. Media: 0 uploaded, 0 unchanged. 0 failures.\n',
    ]);
    expect(await target.client.get('author', 'old')).toMatchObject({ name: 'Old', _status: 'published' });

    writeFileSync(file, JSON.stringify({ ...v1[0], version: 4 }) + '\n');
    const newer = await cli(target, ['import', file]);
    expect([newer.code, newer.stderr]).toEqual([65, `vellum: ${file}: export format version 4 is not supported (expected 1, 2 or 3)\n`]);
  });
});
