import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { VellumClient, type Document, type Media } from '@vellum/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTo, type ExportOptions } from '../../packages/cli/src/transfer/export.js';
import { importFrom, IncompleteImportError, type ImportSummary } from '../../packages/cli/src/transfer/import.js';
import type { ExportLine } from '../../packages/cli/src/transfer/transfer-format.js';
import type { TransferEvent } from '../../packages/cli/src/transfer/transfer-progress.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { jpeg, pdf, png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * `vellum export` / `vellum import` as libraries (packages/cli/src/transfer/), between two apps
 * on two fresh databases, both listening on real ports: what the first holds arrives in the
 * second with its ids, references, revisions and files (docs/cli.md, "Export and import").
 */

interface Server {
  t: TestApp;
  client: VellumClient;
  baseUrl: string;
  mediaDir: string;
}

const servers: Server[] = [];

async function startServer(media: Record<string, unknown> = {}): Promise<Server> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-transfer-'));
  const t = await startTestApp({ schemas: TEST_SCHEMAS, media: { dir: mediaDir, ...media } });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/api`;
  const client = new VellumClient({ baseUrl });
  const signedIn = await client.login(ADMIN.username, ADMIN.password);
  expect(signedIn.kind).toBe('signedIn');
  const server = { t, client, baseUrl, mediaDir };
  servers.push(server);
  return server;
}

/** The export as text, collected from the stream it is written to. */
async function exportText(from: Server, opts: Partial<ExportOptions> = {}): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportTo(from.client, out, { media: 'include', ...opts });
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A hand-written export file (docs/cli.md, "Export and import"): the header of an export of
 * `types` from `from` with the files included, then `body` line by line (its trailer too).
 */
function exportFile(from: Server, types: string[], body: object[]): string {
  const header = { kind: 'vellum-export', version: 1, exportedAt: new Date().toISOString(), source: from.baseUrl, types, media: 'include' };
  return [header, ...body].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function importText(into: Server, text: string, events: TransferEvent[] = [], source?: () => VellumClient): Promise<ImportSummary> {
  return importFrom(into.client, Readable.from([Buffer.from(text)]), { onProgress: (e) => events.push(e), source });
}

/** The summary's drafts and schedules of a file that holds none. */
const NO_WORKFLOW = { drafts: { written: 0, skipped: 0 }, schedules: { created: 0, skipped: 0 }, schedulesLeftOut: [] };

const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExportLine);

async function allDocuments(s: Server, type: string): Promise<Document[]> {
  return (await s.client.list(type, { limit: 100, orderBy: '_createdAt', order: 'asc' })).data;
}

async function revisionCount(s: Server, type: string, id: string): Promise<number> {
  const res = await s.client.request<{ meta: { total: number } }>('GET', `/documents/${type}/${id}/revisions`);
  return res.meta.total;
}

/** The status, with the body read: a response left unread keeps its connection busy, and closing the app waits for it. */
async function statusOf(url: URL): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

async function fileBytes(s: Server, m: Media): Promise<Buffer> {
  const res = await fetch(new URL(m.url, s.baseUrl));
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status).toBe(200);
  return bytes;
}

/** What must be equal on both sides; timestamps (`_createdAt`, `_updatedAt`, `createdAt`…) and the author of each write are not kept. */
const documentView = (d: Document) =>
  Object.fromEntries(Object.entries(d).filter(([k]) => !['_createdAt', '_updatedAt', '_createdBy', '_updatedBy'].includes(k)));
/** The media record's fields kept as they were (its timestamps and `createdBy` are the target's own). */
const MEDIA_KEPT: Array<keyof Media> = [
  '_id',
  'filename',
  'originalFilename',
  'mimeType',
  'size',
  'sha256',
  'width',
  'height',
  'alt',
  'title',
  'variants',
];
const mediaView = (m: Media) => Object.fromEntries(MEDIA_KEPT.map((k) => [k, m[k]]));

const TYPES = ['company', 'author', 'post', 'site'];

describe('export then import into an empty second database', () => {
  let source: Server;
  let target: Server;
  let exported: string;
  let firstImport: ImportSummary;
  const events: TransferEvent[] = [];
  const ids = { media: [] as string[] };

  beforeAll(async () => {
    source = await startServer();
    target = await startServer();
    const c = source.client;

    // Media: two images used by posts and a PDF used by nothing.
    const hero = await c.uploadMedia(new Blob([await png(640, 480)]), { filename: 'hero.png', alt: 'A hero', title: 'Hero' });
    const portrait = await c.uploadMedia(new Blob([await jpeg(300, 400)]), { filename: 'portrait.jpg' });
    const manual = await c.uploadMedia(new Blob([pdf()]), { filename: 'manual.pdf', title: 'Manual' });
    ids.media = [hero._id, portrait._id, manual._id];
    // Noise does not compress: a PNG of about 700 KB, sent as several 256 KiB lines.
    const noise = await sharp(randomBytes(480 * 480 * 3), { raw: { width: 480, height: 480, channels: 3 } })
      .png()
      .toBuffer();
    const big = await c.uploadMedia(new Blob([noise]), { filename: 'noise.png' });
    ids.media.push(big._id);

    const acme = await c.create('company', { _id: 'acme', name: 'Acme', country: 'de', _status: 'published' });
    const ada = await c.create('author', { _id: 'ada', name: 'Ada', company: acme._id, _status: 'published' });
    await c.patch('author', ada._id, { bio: 'Wrote the first program.' });
    const bob = await c.create('author', { name: 'Bob', email: 'bob@example.com' });

    // A post with three versions, published in the middle one.
    const p1 = await c.create('post', { _id: 'p1', title: 'First', author: ada._id, cover: hero._id, tags: ['a'], price: 10 });
    await c.patch('post', p1._id, { title: 'First (edited)', _status: 'published' });
    await c.patch('post', p1._id, { seo: { title: 'SEO' }, location: { lat: 52.5, lng: 13.4 }, publishAt: '2026-01-02T03:04:05Z' });
    // A reference cycle between two posts: p2 → p3 → p2, the link from p2 added last.
    const p2 = await c.create('post', { _id: 'p2', title: 'Second', author: bob._id, cover: portrait._id, meta: { x: [1, 2] } });
    const p3 = await c.create('post', { _id: 'p3', title: 'Third', related: [p2._id], _status: 'archived' });
    await c.patch('post', p2._id, { related: [p3._id] });
    await c.create('site', { siteName: 'Example' });

    exported = await exportText(source);
    firstImport = await importText(target, exported, events);
  });

  afterAll(async () => {
    for (const s of servers.splice(0)) {
      await s.t.close();
      rmSync(s.mediaDir, { recursive: true, force: true });
    }
  });

  it('writes the header, the media with their bytes, the documents with their history and the trailer', () => {
    const all = lines(exported);
    expect(all[0]).toMatchObject({ kind: 'vellum-export', version: 2, source: source.baseUrl, media: 'include' });
    // Types ordered so references point backwards: company before author before post.
    const header = all[0] as Extract<ExportLine, { kind: 'vellum-export' }>;
    expect(header.types.indexOf('company')).toBeLessThan(header.types.indexOf('author'));
    expect(header.types.indexOf('author')).toBeLessThan(header.types.indexOf('post'));
    expect(all.at(-1)).toEqual({ kind: 'end', counts: { media: 4, documents: 7, revisions: 4, drafts: 0, schedules: 0 } });
    const p1 = all.find((l) => l.kind === 'document' && l.document._id === 'p1') as Extract<ExportLine, { kind: 'document' }>;
    expect(p1.revisions.map((r) => [r._rev, r.data.title, r._status])).toEqual([
      [1, 'First', 'draft'],
      [2, 'First (edited)', 'published'],
    ]);
    const chunks = all.filter((l) => l.kind === 'media-data');
    for (const l of chunks) expect(Buffer.from(l.data, 'base64').length).toBeLessThanOrEqual(256 * 1024);
    expect(chunks.filter((l) => l.id === ids.media[3]).map((l) => l.seq)).toEqual([0, 1, 2]);
  });

  it('imports every document with its _id, fields and status', async () => {
    expect(firstImport).toEqual({
      created: 7,
      updated: 0,
      skipped: 0,
      failed: [],
      media: { uploaded: 4, skipped: 0 },
      versionsLeftOut: 0,
      ...NO_WORKFLOW,
    });
    for (const type of TYPES) {
      const a = await allDocuments(source, type);
      const b = await allDocuments(target, type);
      expect(b.map(documentView), type).toEqual(a.map(documentView));
    }
  });

  it('keeps references, the cycle included, and they resolve with expand', async () => {
    const p1 = await target.client.get('post', 'p1', 'author.company,cover');
    expect((p1.author as Document).name).toBe('Ada');
    expect(((p1.author as Document).company as Document)._id).toBe('acme');
    expect((p1.cover as Media)._id).toBe(ids.media[0]);
    const p2 = await target.client.get('post', 'p2', 'related');
    expect((p2.related as Document[]).map((d) => [d._id, d.title])).toEqual([['p3', 'Third']]);
    const p3 = await target.client.get('post', 'p3', 'related');
    expect((p3.related as Document[]).map((d) => d._id)).toEqual(['p2']);
    expect(events).toContainEqual({ kind: 'document', type: 'post', id: 'p2', status: 'deferred' });
    // The totals come first, from the header's `contents`: the bar knows them before the first item.
    const media = JSON.parse(exported.split('\n')[0]!).contents.media as number;
    expect(events.slice(0, 2)).toEqual([
      { kind: 'total', what: 'media', total: media },
      {
        kind: 'total',
        what: 'documents',
        total: firstImport.created + firstImport.updated + firstImport.skipped + firstImport.failed.length,
      },
    ]);
  });

  it('replays the history: each document has as many revisions as on the source', async () => {
    for (const type of TYPES) {
      for (const d of await allDocuments(source, type)) {
        expect(await revisionCount(target, type, d._id), `${type} ${d._id}`).toBe(await revisionCount(source, type, d._id));
      }
    }
    const history = await target.client.request<{ data: Array<{ _rev: number; _status: string; data: { title: string } }> }>(
      'GET',
      '/documents/post/p1/revisions',
    );
    expect(history.data.map((r) => [r.data.title, r._status])).toEqual([
      ['First (edited)', 'published'],
      ['First (edited)', 'published'],
      ['First', 'draft'],
    ]);
  });

  it('brings the media records with their ids, and the files byte for byte', async () => {
    const a = (await source.client.listMedia({ limit: 100, orderBy: 'filename', order: 'asc' })).data;
    const b = (await target.client.listMedia({ limit: 100, orderBy: 'filename', order: 'asc' })).data;
    expect(b.map(mediaView)).toEqual(a.map(mediaView));
    for (const m of a) {
      const copy = b.find((x) => x._id === m._id)!;
      expect((await fileBytes(target, copy)).equals(await fileBytes(source, m)), m.originalFilename).toBe(true);
      for (const path of Object.values(copy.variants)) expect(await statusOf(new URL(path, target.baseUrl))).toBe(200);
    }
  });

  it('changes nothing when the same file is imported again: everything is skipped', async () => {
    const before = await Promise.all(TYPES.map((t) => allDocuments(target, t)));
    const again = await importText(target, exported);
    expect(again).toEqual({
      created: 0,
      updated: 0,
      skipped: 7,
      failed: [],
      media: { uploaded: 0, skipped: 4 },
      versionsLeftOut: 0,
      ...NO_WORKFLOW,
    });
    const after = await Promise.all(TYPES.map((t) => allDocuments(target, t)));
    expect(after).toEqual(before);
    expect((await target.client.listMedia()).meta.total).toBe(4);
  });

  it('imports what was complete of a truncated file, then reports it as an error', async () => {
    const cut = exported.slice(0, exported.indexOf('"_id":"p2"'));
    const third = await startServer();
    const err = await importText(third, cut).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IncompleteImportError);
    expect((err as Error).message).toMatch(/ends in the middle of line|cut short/);
    const summary = (err as IncompleteImportError).summary;
    expect(summary).toMatchObject({ failed: [], media: { uploaded: 4, skipped: 0 }, versionsLeftOut: 0 });
    // company, both authors and p1 were whole before the cut.
    expect(summary.created).toBe(4);
    expect((await allDocuments(third, 'post')).map((d) => d._id)).toEqual(['p1']);
    expect(await revisionCount(third, 'post', 'p1')).toBe(3);

    const noTrailer = exported.slice(0, exported.lastIndexOf('{"kind":"end"'));
    await expect(importText(third, noTrailer)).rejects.toThrow(/cut short/);
    // A trailer that counts lines the file does not hold: lines were lost on the way.
    const miscounted = exported.replace('"documents":7,', '"documents":9,');
    await expect(importText(third, miscounted)).rejects.toThrow(/trailer counts 4 media and 9 documents, the file holds 4 and 7/);
  });

  it('with media: reference, the import fetches each file from the source', async () => {
    const text = await exportText(source, { media: 'reference' });
    expect(lines(text).some((l) => l.kind === 'media-data')).toBe(false);
    const fourth = await startServer();
    const summary = await importText(fourth, text);
    expect(summary).toMatchObject({ created: 7, failed: [], media: { uploaded: 4, skipped: 0 }, versionsLeftOut: 0 });
    for (const m of (await source.client.listMedia()).data) {
      const copy = await fourth.client.getMedia(m._id);
      expect(copy.sha256).toBe(m.sha256);
      expect((await fileBytes(fourth, copy)).equals(await fileBytes(source, m))).toBe(true);
    }
  });

  it('writes a document changed on the target since back over it (updated)', async () => {
    await target.client.patch('author', 'ada', { bio: 'Changed on the target' });
    const summary = await importText(target, exported);
    expect(summary).toMatchObject({ created: 0, updated: 1, skipped: 6, failed: [] });
    expect((await target.client.get('author', 'ada')).bio).toBe('Wrote the first program.');
  });

  it('creates a document whose first version points forward without the reference, then writes it whole', async () => {
    const body = [
      {
        kind: 'document',
        type: 'post',
        document: { _id: 'fwd-a', _status: 'published', _rev: 1, title: 'A', related: ['fwd-b'] },
        revisions: [],
      },
      {
        kind: 'document',
        type: 'post',
        document: { _id: 'fwd-b', _status: 'draft', _rev: 1, title: 'B', related: ['fwd-a'] },
        revisions: [],
      },
      { kind: 'end', counts: { media: 0, documents: 2, revisions: 0 } },
    ];
    const summary = await importText(target, exportFile(source, ['post'], body));
    expect(summary).toMatchObject({ created: 2, failed: [] });
    expect((await target.client.get('post', 'fwd-a')).related).toEqual(['fwd-b']);
    expect((await target.client.get('post', 'fwd-a'))._status).toBe('published');
    expect((await target.client.get('post', 'fwd-b')).related).toEqual(['fwd-a']);
    // The version without the reference stays in the history: one revision more than in the file.
    expect(await revisionCount(target, 'post', 'fwd-a')).toBe(2);
  });

  it('lists a pending draft the target refuses and a schedule of a missing document as failures, and goes on (version 2)', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const schedule = (id: string, documentId: string, action: string) => ({
      kind: 'schedule',
      schedule: { id, type: 'post', documentId, action, at, status: 'pending', createdBy: null, createdAt: at },
    });
    const body = (drafts: number) => [
      {
        kind: 'document',
        type: 'post',
        document: { _id: 'dr-a', _status: 'published', _rev: 1, title: 'A' },
        revisions: [],
        draft: { _rev: 1, data: { title: 'A draft', views: -1 } },
      },
      {
        kind: 'document',
        type: 'post',
        document: { _id: 'dr-b', _status: 'published', _rev: 1, title: 'B' },
        revisions: [],
        draft: { _rev: 3, data: { title: 'B draft' } },
      },
      schedule('s1', 'nowhere', 'publish'),
      schedule('s2', 'dr-b', 'unpublish'),
      { kind: 'end', counts: { media: 0, documents: 2, revisions: 0, drafts, schedules: 2 } },
    ];
    const file = (drafts: number) => exportFile(source, ['post'], body(drafts)).replace('"version":1', '"version":2');
    const summary = await importText(target, file(2));
    expect(summary).toMatchObject({
      created: 2,
      drafts: { written: 1, skipped: 0 },
      schedules: { created: 1, skipped: 0 },
      schedulesLeftOut: [],
    });
    expect(summary.failed).toEqual([
      { type: 'post', id: 'dr-a', error: expect.stringMatching(/^draft: 422 VALIDATION_ERROR: .*\(views: /) },
      { type: 'post', id: 'nowhere', error: expect.stringMatching(/^schedule publish at .*: 404 NOT_FOUND/) },
    ]);
    const posts = target.client.documents('post');
    expect(await posts.get('dr-a', { perspective: 'drafts' })).toMatchObject({ title: 'A', _version: 'main' });
    expect(await posts.get('dr-b', { perspective: 'drafts' })).toMatchObject({ title: 'B draft', _version: 'draft' });
    expect((await posts.schedules('dr-b')).map((s) => [s.action, s.at, s.status])).toEqual([['unpublish', at, 'pending']]);

    // A trailer that counts drafts the file does not hold: lines were lost on the way.
    await expect(importText(target, file(3))).rejects.toThrow(/the trailer counts 3 drafts and 2 schedules, the file holds 2 and 2/);
  });

  it('reports a media id held on the target by other bytes as failed, and goes on', async () => {
    const other = Buffer.from('%PDF-1.4 not the same file');
    const record = { ...(await target.client.getMedia(ids.media[2]!)), sha256: 'f'.repeat(64), size: other.length };
    const body = [
      { kind: 'media', record },
      { kind: 'media-data', id: record._id, seq: 0, data: other.toString('base64') },
      { kind: 'media-end', id: record._id, sha256: record.sha256 },
      { kind: 'end', counts: { media: 1, documents: 0, revisions: 0 } },
    ];
    const summary = await importText(target, exportFile(source, [], body));
    expect(summary.media).toEqual({ uploaded: 0, skipped: 0 });
    expect(summary.failed).toEqual([{ id: record._id, type: 'media', error: expect.stringMatching(/taken on the target/) }]);
  });

  it('leaves out of the history an earlier version the target refuses, and counts it', async () => {
    const version = (rev: number, data: Record<string, unknown>) => ({ _rev: rev, _status: 'draft', data });
    const body = [
      {
        kind: 'document',
        type: 'post',
        // Versions 1 and 3 hold a field the target has no more (a schema changed since): left out. 2 points at a
        // deleted author: kept without it.
        document: { _id: 'old-history', _status: 'published', _rev: 4, title: 'Now' },
        revisions: [
          version(1, { title: 'One', subtitle: 'gone' }),
          version(2, { title: 'Two', author: 'deleted-author' }),
          version(3, { title: 'Three', subtitle: 'gone' }),
        ],
      },
      { kind: 'end', counts: { media: 0, documents: 1, revisions: 3 } },
    ];
    const summary = await importText(target, exportFile(source, ['post'], body));
    expect(summary).toMatchObject({ created: 1, failed: [], versionsLeftOut: 2 });
    const history = await target.client.request<{ data: Array<{ data: { title: string } }> }>(
      'GET',
      '/documents/post/old-history/revisions',
    );
    expect(history.data.map((r) => r.data.title)).toEqual(['Now', 'Two']);
    expect((await target.client.get('post', 'old-history')).author).toBeUndefined();
  });

  it('lists documents the target refuses in the summary, with the fields named, and goes on', async () => {
    const body = [
      { kind: 'document', type: 'post', document: { _id: 'bad-price', _status: 'draft', _rev: 1, title: 'X', price: -1 }, revisions: [] },
      { kind: 'document', type: 'gadget', document: { _id: 'g1', _status: 'draft', _rev: 1, name: 'G' }, revisions: [] },
      { kind: 'document', type: 'post', document: { _id: 'good', _status: 'draft', _rev: 1, title: 'Fine' }, revisions: [] },
      { kind: 'end', counts: { media: 0, documents: 3, revisions: 0 } },
    ];
    const summary = await importText(target, exportFile(source, ['post'], body));
    expect(summary).toMatchObject({ created: 1, updated: 0, skipped: 0 });
    expect(summary.failed).toEqual([
      { id: 'bad-price', type: 'post', error: expect.stringMatching(/^422 VALIDATION_ERROR: .*\(price: /) },
      { id: 'g1', type: 'gadget', error: 'the target has no type gadget' },
    ]);
  });

  it('does not upload a file whose bytes stop before its media-end', async () => {
    const whole = pdf();
    const record = { ...(await target.client.getMedia(ids.media[2]!)), _id: 'half-file' };
    const body = [
      { kind: 'media', record },
      { kind: 'media-data', id: record._id, seq: 0, data: whole.subarray(0, 100).toString('base64') },
      { kind: 'end', counts: { media: 1, documents: 0, revisions: 0 } },
    ];
    const summary = await importText(target, exportFile(source, [], body));
    expect(summary.failed).toEqual([{ id: 'half-file', type: 'media', error: expect.stringMatching(/before media-end/) }]);
    await expect(target.client.getMedia('half-file')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a file that is not an export', async () => {
    await expect(importText(target, '{"hello":"world"}\n')).rejects.toThrow(/not a Vellum export/);
    await expect(importText(target, '')).rejects.toThrow(/empty/);
  });

  it('reads files that need a token through the signed-in client: on export, and on import of references', async () => {
    const closed = await startServer({ publicRead: false });
    const bytes = await png(120, 80);
    const m = await closed.client.uploadMedia(new Blob([bytes]), { filename: 'private.png' });
    expect(await statusOf(new URL(m.url, closed.baseUrl))).toBe(401);

    const included = await exportText(closed);
    const fifth = await startServer();
    expect(await importText(fifth, included)).toMatchObject({ failed: [], media: { uploaded: 1 } });
    expect((await fileBytes(fifth, await fifth.client.getMedia(m._id))).equals(bytes)).toBe(true);

    const referenced = await exportText(closed, { media: 'reference' });
    const sixth = await startServer();
    const anonymous = await importText(sixth, referenced);
    expect(anonymous.failed).toEqual([{ id: m._id, type: 'media', error: expect.stringMatching(/answered 401/) }]);
    expect(await importText(sixth, referenced, [], () => closed.client)).toMatchObject({ failed: [], media: { uploaded: 1 } });
    expect((await sixth.client.getMedia(m._id)).sha256).toBe(m.sha256);
  });
});
