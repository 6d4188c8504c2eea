import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Document, Media, Schedule, VellumClient } from '@vellum/client/node';
import { fetchTypeSchemas } from '../json-schema/type-schemas.js';
import { orderTypes } from './schema-walk.js';
import {
  ALL_LOCALES,
  EXPORT_VERSION,
  LOCALIZED_EXPORT_VERSION,
  MEDIA_CHUNK_BYTES,
  fieldsOf,
  type DocumentVersion,
  type ExportContents,
  type ExportCounts,
  type ExportLine,
  type MediaMode,
  type PendingDraft,
} from './transfer-format.js';
import type { OnProgress } from './transfer-progress.js';
import { fetchMediaFile } from './fetch-media-file.js';
import { whenNotLimited } from './when-not-limited.js';

/** `types` names a type the server does not have: nothing was written. */
export class UnknownTypesError extends Error {}

export interface ExportOptions {
  /** Schema names; all by default. */
  types?: readonly string[];
  media: MediaMode;
  onProgress?: OnProgress;
}

const PAGE = 100;

/**
 * Writes the export to `out` as it is read (docs/cli.md, "Export and import"): nothing but one page of a list
 * and one document's history is held in memory, and each line waits for `out` to drain.
 * 1. The schemas: check the types asked for, order them so references point backwards.
 * 2. The header (with the source's content locales, if it has any: then every document, revision
 *    and draft is read and written in the `locale=*` shape, docs/localization.md), and what the
 *    file is about to hold, counted first (`contents`).
 * 3. Every media record, with its bytes in chunks for `include`.
 * 4. Every document of each type (all statuses, oldest first) with its earlier versions and its
 *    pending draft, if it has one (docs/drafts.md).
 * 5. The pending schedules of those types (docs/schedules.md), by `at`.
 * 6. The trailer with the counts.
 */
export async function exportTo(client: VellumClient, out: Writable, opts: ExportOptions): Promise<ExportCounts> {
  const write = lineWriter(out);
  const schemas = await fetchTypeSchemas(client);
  const known = schemas.map((s) => s.name);
  const unknown = (opts.types ?? []).filter((t) => !known.includes(t));
  if (unknown.length > 0) throw new UnknownTypesError(`unknown type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const types = orderTypes(schemas, opts.types ?? known);
  // Every read of a localized source is `locale=*`: each document with every locale's values.
  const locales = await client.config.locales();
  const read: Reading = { locale: locales ? ALL_LOCALES : undefined };

  const contents = await countContents(client, types);
  opts.onProgress?.({ kind: 'total', what: 'media', total: contents.media });
  opts.onProgress?.({ kind: 'total', what: 'documents', total: Object.values(contents.documents).reduce((a, b) => a + b, 0) });

  await write({
    kind: 'vellum-export',
    version: locales ? LOCALIZED_EXPORT_VERSION : EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    source: client.transport.url(''),
    types,
    media: opts.media,
    ...(locales ? { locales: locales.list.map((l) => l.code) } : {}),
    contents,
  });

  const counts: Required<ExportCounts> = { media: 0, documents: 0, revisions: 0, drafts: 0, schedules: 0 };
  for await (const record of allMedia(client)) {
    await write({ kind: 'media', record });
    if (opts.media === 'include') await writeMediaBytes(client, record, write);
    counts.media++;
    opts.onProgress?.({ kind: 'media', id: record._id, status: 'exported', bytes: record.size });
  }

  for (const type of types) {
    for await (const document of allDocuments(client, type, read)) {
      const revisions = await earlierVersions(client, type, document, read);
      const draft = await pendingDraft(client, type, document, read);
      await write({ kind: 'document', type, document, revisions, ...(draft ? { draft } : {}) });
      counts.documents++;
      counts.revisions += revisions.length;
      if (draft) counts.drafts++;
      opts.onProgress?.({ kind: 'document', type, id: document._id, status: 'exported' });
    }
  }

  for (const type of types) {
    for await (const schedule of pendingSchedules(client, type)) {
      await write({ kind: 'schedule', schedule });
      counts.schedules++;
      opts.onProgress?.({ kind: 'schedule', type, id: schedule.documentId, action: schedule.action, at: schedule.at, status: 'exported' });
    }
  }

  await write({ kind: 'end', counts });
  return counts;
}

/** One line per call, waiting for `drain` when the stream's buffer is full; a stream error rejects. */
function lineWriter(out: Writable): (line: ExportLine) => Promise<void> {
  return (line) =>
    new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      out.once('error', onError);
      const flushed = out.write(`${JSON.stringify(line)}\n`, (err) => {
        if (err) reject(err);
      });
      const done = () => {
        out.off('error', onError);
        resolve();
      };
      if (flushed) done();
      else out.once('drain', done);
    });
}

/** The header's `contents`, before anything is written: one list request for the media and one per type. */
async function countContents(client: VellumClient, types: readonly string[]): Promise<ExportContents> {
  const media = (await whenNotLimited(() => client.listMedia({ limit: 1 }))).meta.total;
  const documents: Record<string, number> = {};
  for (const type of types) documents[type] = (await whenNotLimited(() => client.list(type, { limit: 1 }))).meta.total;
  return { media, documents };
}

async function* allMedia(client: VellumClient): AsyncGenerator<Media> {
  for (let offset = 0; ; offset += PAGE) {
    const { data } = await whenNotLimited(() => client.listMedia({ limit: PAGE, offset, orderBy: 'createdAt', order: 'asc' }));
    yield* data;
    if (data.length < PAGE) return;
  }
}

/** How documents are read: `locale=*` when the source has content locales. */
interface Reading {
  locale: string | undefined;
}

const localeParam = (locale: string | undefined): Record<string, string> => (locale === undefined ? {} : { locale });

async function* allDocuments(client: VellumClient, type: string, { locale }: Reading): AsyncGenerator<Document> {
  for (let offset = 0; ; offset += PAGE) {
    const query: Record<string, string | number> = { limit: PAGE, offset, orderBy: '_createdAt', order: 'asc', ...localeParam(locale) };
    const { data } = await whenNotLimited(() => client.list(type, query));
    yield* data;
    if (data.length < PAGE) return;
  }
}

/**
 * A published document's pending draft: the `_draft` marker of the list tells which have one
 * (docs/drafts.md, "Markers"), so only those cost a second read, `?perspective=drafts`. A draft
 * published or discarded between the two reads is served as the main version: none then.
 */
async function pendingDraft(client: VellumClient, type: string, doc: Document, { locale }: Reading): Promise<PendingDraft | undefined> {
  if (!doc._draft) return undefined;
  const served = await whenNotLimited(() => client.documents(type).get(doc._id, { perspective: 'drafts', locale }));
  return served._version === 'draft' ? { _rev: served._rev, data: fieldsOf(served) } : undefined;
}

/** The type's pending schedules (ones that ran or were cancelled are history, not plans), by `at`. */
async function* pendingSchedules(client: VellumClient, type: string): AsyncGenerator<Schedule> {
  for (let offset = 0; ; offset += PAGE) {
    const { data } = await whenNotLimited(() => client.schedules.list({ type, status: 'pending', limit: PAGE, offset }));
    yield* data;
    if (data.length < PAGE) return;
  }
}

/** `GET …/revisions` lists every version newest first, the current one included: the others, oldest first. */
async function earlierVersions(client: VellumClient, type: string, doc: Document, { locale }: Reading): Promise<DocumentVersion[]> {
  const versions: DocumentVersion[] = [];
  const docs = client.documents(type);
  for (let offset = 0; ; offset += PAGE) {
    const { data } = await whenNotLimited(() => docs.revisions(doc._id, { limit: PAGE, offset, locale }));
    for (const v of data) if (v._rev !== doc._rev) versions.push({ _rev: v._rev, _status: v._status, data: v.data });
    if (data.length < PAGE) break;
  }
  return versions.reverse();
}

/** The file's bytes as `media-data` lines of at most 256 KiB, then `media-end` with the SHA-256 of what was sent. */
async function writeMediaBytes(client: VellumClient, record: Media, write: (line: ExportLine) => Promise<void>): Promise<void> {
  const hash = createHash('sha256');
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (all: boolean) => {
    while (pendingBytes >= MEDIA_CHUNK_BYTES || (all && pendingBytes > 0)) {
      const joined = Buffer.concat(pending);
      const chunk = joined.subarray(0, MEDIA_CHUNK_BYTES);
      const rest = joined.subarray(chunk.length);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      await write({ kind: 'media-data', id: record._id, seq: seq++, data: chunk.toString('base64') });
    }
  };
  for await (const bytes of await fetchMediaFile(record, client.transport.url(''), client)) {
    hash.update(bytes);
    pending.push(bytes);
    pendingBytes += bytes.length;
    await flush(false);
  }
  await flush(true);
  const sha256 = hash.digest('hex');
  if (sha256 !== record.sha256) throw new Error(`media ${record._id}: the file read does not match its SHA-256`);
  await write({ kind: 'media-end', id: record._id, sha256 });
}
