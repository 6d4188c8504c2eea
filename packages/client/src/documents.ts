import type { DocumentInput, DocumentPatch, PublishPlan, Revision, VellumDocument } from './document-types.js';
import type { ListResult } from './list-result.js';
import { DocumentQuery, listQueryParams, type DocumentListQuery, type Perspective } from './query-builder.js';
import type { Expanded, ExpandPath, SchemaMap, UntypedSchemas } from './schema-types.js';
import { scheduleBody, type Schedule, type ScheduleInput } from './schedules.js';
import type { Transport } from './transport.js';

/** A list query whose `expand` names paths `P` (any string on an untyped client). */
export type TypedListQuery<T extends object, P extends string> = Omit<DocumentListQuery<T>, 'expand'> & { expand?: P | readonly P[] };

/** `/documents` reads published content anonymously while the type is public; `/collections` checks every call. */
export type DocumentsMode = 'documents' | 'collections';

export interface ReadOptions<P extends string = string> {
  expand?: P | readonly P[];
  fields?: readonly string[];
  perspective?: Perspective;
  /** A content locale's code, or `*` for every locale's values (docs/localization.md). */
  locale?: string;
}

export interface LocaleOption {
  /**
   * The content locale the body's localized fields are written in, or `*` for `{<code>: value}`
   * objects (docs/localization.md, "Writing"); the default locale when absent.
   */
  locale?: string;
}

export interface WriteOptions extends LocaleOption {
  /** The `_rev` the write is based on: sent as `If-Match: "<rev>"`, a newer stored one is 412 `PRECONDITION_FAILED`. */
  ifMatch?: number;
}

export interface DraftWriteOptions extends LocaleOption {
  /**
   * The pending draft's `_rev` the save is based on (`If-Match: "d<rev>"`), or `{main: rev}` while
   * the document has no pending draft yet (the main version it is made from).
   */
  ifMatch?: number | { main: number };
}

export interface PublishOptions {
  /** Publish the unpublished documents it references (and theirs) in the same transaction. */
  withReferences?: boolean;
  /** Publish a pending draft made from an older main version than the current one. */
  force?: boolean;
}

/** A preview token and where it opens (`url` absent when the schema has no `preview.url`). */
export interface PreviewGrant {
  token: string;
  url?: string;
  expiresAt: string;
}

const localeQuery = ({ locale }: LocaleOption): Record<string, string> => (locale === undefined ? {} : { locale });

/** `"<rev>"`, the ETag of a document (docs/api.md, "Documents"). */
const ifMatchHeader = (opts: WriteOptions): Record<string, string> | undefined =>
  opts.ifMatch === undefined ? undefined : { 'if-match': `"${opts.ifMatch}"` };

/** `"d<rev>"`, the ETag of a pending draft, or a main version's while there is none (docs/drafts.md). */
const draftIfMatchHeader = ({ ifMatch }: DraftWriteOptions): Record<string, string> | undefined =>
  ifMatch === undefined ? undefined : { 'if-match': typeof ifMatch === 'number' ? `"d${ifMatch}"` : `"${ifMatch.main}"` };

/**
 * The documents of one type, typed by `T` (the schema's fields): `client.documents<Post>('post')`.
 * Drafts of published documents (docs/drafts.md): `saveDraft`, `discardDraft`, `publish`,
 * `unpublish`, and `perspective` on reads.
 */
export class DocumentsApi<T extends object = Record<string, unknown>, S extends SchemaMap = UntypedSchemas> {
  private readonly base: string;

  constructor(
    private readonly t: Transport,
    readonly type: string,
    mode: DocumentsMode = 'documents',
  ) {
    this.base = `/${mode}/${encodeURIComponent(type)}`;
  }

  /** A query builder over this type: `.where(…).orderBy(…).page()`, or `for await` over every match. */
  query(query: DocumentListQuery<T> = {}): DocumentQuery<T, S> {
    return new DocumentQuery<T, S>((q) => this.page(q), query);
  }

  /**
   * One page of the list. On a typed client (docs/client.md, "Typed by the schema") `expand`
   * takes the type's reference paths as a list, and each expanded reference is typed as the
   * document it names.
   */
  list<const P extends ExpandPath<S, T> = never>(
    query: TypedListQuery<T, P> = {},
  ): Promise<ListResult<VellumDocument<Expanded<S, T, P> & object>>> {
    return this.page<Expanded<S, T, P> & object>(query as DocumentListQuery<T>);
  }

  /** A page as the query builder reads it: the builder types what its query expands. */
  private page<R extends object>(query: DocumentListQuery<T> | DocumentListQuery<R>): Promise<ListResult<VellumDocument<R>>> {
    return this.t.json({ method: 'GET', path: this.base, query: listQueryParams(query as DocumentListQuery<T>) });
  }

  async get<const P extends ExpandPath<S, T> = never>(
    id: string,
    opts: ReadOptions<P> = {},
  ): Promise<VellumDocument<Expanded<S, T, P> & object>> {
    const query = listQueryParams({ expand: opts.expand, fields: opts.fields, perspective: opts.perspective, locale: opts.locale });
    return (await this.t.json<{ data: VellumDocument<Expanded<S, T, P> & object> }>({ method: 'GET', path: this.path(id), query })).data;
  }

  async create(doc: DocumentInput<T>, opts: LocaleOption = {}): Promise<VellumDocument<T>> {
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'POST', path: this.base, query: localeQuery(opts), json: doc })).data;
  }

  /** `PUT`: the whole document; fields left out are removed. */
  replace(id: string, doc: DocumentInput<T>, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return this.write('PUT', id, doc, opts);
  }

  /** `PATCH` (RFC 7396 merge patch). */
  patch(id: string, patch: DocumentPatch<T>, opts: WriteOptions = {}): Promise<VellumDocument<T>> {
    return this.write('PATCH', id, patch, opts);
  }

  /** A write of one document, in `opts.locale` and checked against `opts.ifMatch`: the document served back. */
  private async write(method: 'PUT' | 'PATCH', id: string, json: unknown, opts: WriteOptions): Promise<VellumDocument<T>> {
    const headers = ifMatchHeader(opts);
    return (await this.t.json<{ data: VellumDocument<T> }>({ method, path: this.path(id), query: localeQuery(opts), json, headers })).data;
  }

  /**
   * `PATCH …?draft=true`: on a published document, saves its pending draft (write permission is
   * enough; the live version is unchanged); on any other, the same as `patch`.
   */
  async saveDraft(id: string, patch: Omit<DocumentPatch<T>, '_status'>, opts: DraftWriteOptions = {}): Promise<VellumDocument<T>> {
    return (
      await this.t.json<{ data: VellumDocument<T> }>({
        method: 'PATCH',
        path: this.path(id),
        query: { draft: 'true', ...localeQuery(opts) },
        json: patch,
        headers: draftIfMatchHeader(opts),
      })
    ).data;
  }

  /** Drops the pending draft (404 `NOT_FOUND` when there is none). */
  async discardDraft(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: `${this.path(id)}/draft` });
  }

  /**
   * `POST …/publish` (publish permission): the pending draft becomes the live version, or a
   * document not published is published. 409 `CONFLICT` names references to unpublished
   * documents unless `withReferences`.
   */
  async publish(id: string, opts: PublishOptions = {}): Promise<VellumDocument<T>> {
    return (await this.publishRequest<VellumDocument<T>>(id, { withReferences: opts.withReferences }, opts.force)).data;
  }

  /** What `publish` would do, changing nothing (`dryRun`). */
  async publishPlan(id: string, opts: Pick<PublishOptions, 'withReferences'> = {}): Promise<PublishPlan> {
    return (await this.publishRequest<PublishPlan>(id, { withReferences: opts.withReferences, dryRun: true })).data;
  }

  /** Back to `draft`, holding the pending draft's content if there is one (publish permission). */
  async unpublish(id: string): Promise<VellumDocument<T>> {
    return (await this.t.json<{ data: VellumDocument<T> }>({ method: 'POST', path: `${this.path(id)}/unpublish` })).data;
  }

  /**
   * `POST …/preview` (read permission): a short-lived read-only bearer that may read drafts
   * (`perspective: 'drafts'`), and the schema's preview URL filled in when it has one
   * (docs/preview.md).
   */
  async preview(id: string): Promise<PreviewGrant> {
    return (await this.t.json<{ data: PreviewGrant }>({ method: 'POST', path: `${this.path(id)}/preview` })).data;
  }

  /** `POST …/schedule` (publish permission): a publish or unpublish at a later instant (docs/schedules.md). */
  async schedule(id: string, input: ScheduleInput): Promise<Schedule> {
    return (await this.t.json<{ data: Schedule }>({ method: 'POST', path: `${this.path(id)}/schedule`, json: scheduleBody(input) })).data;
  }

  /** This document's schedules, ordered by `at` (`status` narrows them). */
  async schedules(id: string, query: { status?: Schedule['status']; limit?: number } = {}): Promise<Schedule[]> {
    const q = { type: this.type, documentId: id, status: query.status, limit: query.limit ?? 100 };
    return (await this.t.json<{ data: Schedule[] }>({ method: 'GET', path: '/schedules', query: q })).data;
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

  /** Stored versions, newest first, the current one included; `kind: 'draft'` for the pending draft's saves. */
  revisions(
    id: string,
    page: { limit?: number; offset?: number; kind?: 'main' | 'draft'; locale?: string } = {},
  ): Promise<ListResult<Revision<T>>> {
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

  /**
   * Writes that version's fields as a new revision; the status is kept. On a published document
   * it writes the pending draft; `kind: 'draft'` names a save of the pending draft (docs/drafts.md).
   */
  async restore(id: string, rev: number, opts: { kind?: 'main' | 'draft' } = {}): Promise<VellumDocument<T>> {
    return (
      await this.t.json<{ data: VellumDocument<T> }>({
        method: 'POST',
        path: `${this.path(id)}/revisions/${rev}/restore`,
        query: { kind: opts.kind },
      })
    ).data;
  }

  private publishRequest<R>(id: string, body: { withReferences?: boolean; dryRun?: boolean }, force?: boolean): Promise<{ data: R }> {
    return this.t.json({ method: 'POST', path: `${this.path(id)}/publish`, query: { force: force ? 'true' : undefined }, json: body });
  }

  private path(id: string): string {
    return `${this.base}/${encodeURIComponent(id)}`;
  }
}
