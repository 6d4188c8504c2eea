import type { DocumentInput, DocumentPatch, Revision, VellumDocument } from './document-types.js';
import type { ListResult } from './list-result.js';
import { DocumentQuery, listQueryParams, type DocumentListQuery } from './query-builder.js';
import type { Transport } from './transport.js';

/** `/documents` reads published content anonymously while the type is public; `/collections` checks every call. */
export type DocumentsMode = 'documents' | 'collections';

export interface ReadOptions {
  expand?: string | readonly string[];
  fields?: readonly string[];
}

export interface WriteOptions {
  /** The `_rev` the write is based on: sent as `If-Match: "<rev>"`, a newer stored one is 412 `PRECONDITION_FAILED`. */
  ifMatch?: number;
}

/** `"<rev>"`, the ETag of a document (docs/api.md, "Documents"). */
const ifMatchHeader = (opts: WriteOptions): Record<string, string> | undefined =>
  opts.ifMatch === undefined ? undefined : { 'if-match': `"${opts.ifMatch}"` };

/**
 * The documents of one type, typed by `T` (the schema's fields): `client.documents<Post>('post')`.
 * Publishing has no endpoint of its own: it is a write of `_status` (`publish`, `unpublish`).
 */
export class DocumentsApi<T extends object = Record<string, unknown>> {
  private readonly base: string;

  constructor(
    private readonly t: Transport,
    readonly type: string,
    mode: DocumentsMode = 'documents',
  ) {
    this.base = `/${mode}/${encodeURIComponent(type)}`;
  }

  /** A query builder over this type: `.where(…).orderBy(…).page()`, or `for await` over every match. */
  query(query: DocumentListQuery<T> = {}): DocumentQuery<T> {
    return new DocumentQuery<T>((q) => this.list(q), query);
  }

  /** One page of the list. */
  list(query: DocumentListQuery<T> = {}): Promise<ListResult<VellumDocument<T>>> {
    return this.t.json({ method: 'GET', path: this.base, query: listQueryParams(query) });
  }

  async get(id: string, opts: ReadOptions = {}): Promise<VellumDocument<T>> {
    const query = listQueryParams({ expand: opts.expand, fields: opts.fields });
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'GET', path: this.path(id), query })).data;
  }

  async create(doc: DocumentInput<T>): Promise<VellumDocument<T>> {
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'POST', path: this.base, json: doc })).data;
  }

  /** `PUT`: the whole document; fields left out are removed. */
  async replace(id: string, doc: DocumentInput<T>, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'PUT', path: this.path(id), json: doc, headers: ifMatchHeader(opts) }))
      .data;
  }

  /** `PATCH` (RFC 7396 merge patch). */
  async patch(id: string, patch: DocumentPatch<T>, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return (
      await this.t.json<{ data: VellumDocument<T> }>({ method: 'PATCH', path: this.path(id), json: patch, headers: ifMatchHeader(opts) })
    ).data;
  }

  /** `_status: 'published'` (needs the publish permission). */
  publish(id: string, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return this.patch(id, { _status: 'published' } as DocumentPatch<T>, opts);
  }

  /** Back to `draft` (needs the publish permission while published). */
  unpublish(id: string, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return this.patch(id, { _status: 'draft' } as DocumentPatch<T>, opts);
  }

  /** 409 `CONFLICT` while other documents reference it, unless `force`. */
  async delete(id: string, opts: WriteOptions & { force?: boolean } = {}): Promise<void> {
    await this.t.json({
      method: 'DELETE',
      path: this.path(id),
      query: { force: opts.force ? 'true' : undefined },
      headers: ifMatchHeader(opts),
    });
  }

  /** Stored versions, newest first, the current one included. */
  revisions(id: string, page: { limit?: number; offset?: number } = {}): Promise<ListResult<Revision<T>>> {
    return this.t.json({ method: 'GET', path: `${this.path(id)}/revisions`, query: { ...page } });
  }

  /** One stored version by its `_rev`, or undefined (found by walking the revision list: the API has no single-revision read). */
  async revision(id: string, rev: number): Promise<Revision<T> | undefined> {
    for (let offset = 0; ;) {
      const { data, meta } = await this.revisions(id, { limit: 100, offset });
      const found = data.find((r) => r._rev === rev);
      // Newest first: once past `rev`, it is not stored.
      if (found || data.length === 0 || data[data.length - 1]._rev < rev) return found;
      offset += data.length;
      if (offset >= meta.total) return undefined;
    }
  }

  /** Writes that version's fields as a new revision; the status is kept. */
  async restore(id: string, rev: number): Promise<VellumDocument<T>> {
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'POST', path: `${this.path(id)}/revisions/${rev}/restore` })).data;
  }

  private path(id: string): string {
    return `${this.base}/${encodeURIComponent(id)}`;
  }
}
