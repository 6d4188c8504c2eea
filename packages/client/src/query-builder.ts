import type { SystemFields, VellumDocument } from './document-types.js';
import type { ListResult } from './list-result.js';
import type { ExpandPath, Expanded, FilterValueOf, Picked, SchemaMap, UntypedSchemas } from './schema-types.js';

/** The filter operators of docs/api.md, "List queries". */
export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';
export type FilterValue = string | number | boolean | Date;

type Keys<T> = Extract<keyof T, string>;
/** A field of `T`, a system field, or a dotted path into an object field (`seo.title`). */
export type FieldPath<T> = Keys<T> | Keys<SystemFields> | `${Keys<T>}.${string}`;

export type FieldFilter = FilterValue | { [Op in FilterOp]?: Op extends 'in' | 'nin' ? readonly FilterValue[] : FilterValue };

/** A list query as one object: what `documents(type).list(query)` takes and the builder produces. */
export interface DocumentListQuery<T extends object = Record<string, unknown>> {
  /** `{views: {gt: 10}, category: {in: ['a', 'b']}, featured: true}`: a bare value means `eq`. */
  filter?: { [K in FieldPath<T>]?: FieldFilter };
  search?: string;
  expand?: string | readonly string[];
  orderBy?: FieldPath<T>;
  order?: 'asc' | 'desc';
  /** Order a text field naturally: digit runs by value ("Chapter 2" before "Chapter 10"), case and accents ignored. */
  natural?: boolean;
  fields?: readonly string[];
  limit?: number;
  offset?: number;
  /** A `meta.nextCursor`: the page right after the row it names (not with `offset`). */
  after?: string;
  /** `published`: published main versions only; `drafts`: each document's pending draft where it has one (read permission). */
  perspective?: Perspective;
  /**
   * A content locale's code (`de-CH`), or `*` for every locale's values (docs/localization.md):
   * localized fields served, filtered, ordered and searched through its fallback chain.
   */
  locale?: string;
  /** A locale other than the default: only documents with a localized field it has not translated yet. */
  untranslated?: string;
}

/** How `orderBy` compares: `natural` orders text by its digit runs' values, ignoring case and accents. */
export interface OrderOptions {
  natural?: boolean;
}

/** Which versions a read serves (docs/drafts.md, "Reading"). */
export type Perspective = 'published' | 'drafts';

/** The query string of a list request: `filter[field][op]=value`, `orderBy`, `order`, `natural`, `expand`, `fields`, `search`, `limit`, `offset`, `after`, `perspective`, `locale`. */
export function listQueryParams<T extends object>(query: DocumentListQuery<T>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [field, filter] of Object.entries(query.filter ?? {}) as Array<[string, FieldFilter | undefined]>) {
    if (filter === undefined) continue;
    if (isOperatorObject(filter)) {
      for (const [op, value] of Object.entries(filter))
        if (value !== undefined) params.append(`filter[${field}][${op}]`, filterText(op, value));
    } else {
      params.append(`filter[${field}]`, filterText('eq', filter));
    }
  }
  if (query.search !== undefined) params.set('search', query.search);
  const expand = typeof query.expand === 'string' ? query.expand : query.expand?.join(',');
  if (expand) params.set('expand', expand);
  if (query.fields?.length) params.set('fields', query.fields.join(','));
  if (query.orderBy !== undefined) params.set('orderBy', query.orderBy);
  if (query.order !== undefined) params.set('order', query.order);
  if (query.natural !== undefined) params.set('natural', String(query.natural));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined) params.set('offset', String(query.offset));
  if (query.after !== undefined) params.set('after', query.after);
  if (query.perspective !== undefined) params.set('perspective', query.perspective);
  if (query.locale !== undefined) params.set('locale', query.locale);
  if (query.untranslated !== undefined) params.set('untranslated', query.untranslated);
  return params;
}

function isOperatorObject(filter: FieldFilter): filter is Exclude<FieldFilter, FilterValue> {
  return typeof filter === 'object' && !(filter instanceof Date);
}

function filterText(op: string, value: FilterValue | readonly FilterValue[]): string {
  if (!Array.isArray(value)) return scalarText(value as FilterValue);
  // The server splits `in`/`nin` lists on commas: a value holding one cannot be sent.
  return value
    .map((v) => {
      const text = scalarText(v);
      if (text.includes(','))
        throw new TypeError(`filter ${op}: the value ${JSON.stringify(text)} contains a comma, which separates values`);
      return text;
    })
    .join(',');
}

const scalarText = (value: FilterValue): string => (value instanceof Date ? value.toISOString() : String(value));

/** Fetches one page of a list (bound to a type by `DocumentsApi`). */
export type PageLoader<T extends object> = (query: DocumentListQuery<T>) => Promise<ListResult<VellumDocument<T>>>;

/** The page size an iteration uses when the query sets none: the server's largest. */
const ITERATION_PAGE_SIZE = 100;

/**
 * An immutable list query: each step returns a new query, so a base query can be shared and
 * narrowed. `page()` fetches one page; iterating (`for await`, `all()`) walks every matching
 * document page by page, with `limit` as the page size (100 when unset): the first page from
 * `offset` (or `after`), each next one `after` the previous page's `meta.nextCursor`, so
 * documents written meanwhile neither repeat nor push others out of the walk.
 *
 * Typed by the model `S` (docs/client.md, "Typed by the schema"): `where` takes the field's own
 * values, `expand` the reference paths of `T` and `fields` its field names, and what they read
 * (`R`) follows: an expanded reference is the document it names, a narrowed read has those fields.
 */
export class DocumentQuery<
  T extends object = Record<string, unknown>,
  S extends SchemaMap = UntypedSchemas,
  R extends object = T,
> implements AsyncIterable<VellumDocument<R>> {
  constructor(
    private readonly load: PageLoader<R>,
    readonly query: DocumentListQuery<T> = {},
  ) {}

  /** `where('views', 'gt', 10)`, `where('category', 'in', ['a', 'b'])`, `where('seo', 'exists', true)`, or `where('featured', true)` for `eq`. */
  where<F extends FieldPath<T>>(field: F, op: 'in' | 'nin', values: ReadonlyArray<FilterValueOf<T, F>>): DocumentQuery<T, S, R>;
  where<F extends FieldPath<T>>(field: F, op: 'exists', value: boolean): DocumentQuery<T, S, R>;
  where<F extends FieldPath<T>>(
    field: F,
    op: Exclude<FilterOp, 'in' | 'nin' | 'exists'>,
    value: FilterValueOf<T, F>,
  ): DocumentQuery<T, S, R>;
  where<F extends FieldPath<T>>(field: F, value: FilterValueOf<T, F>): DocumentQuery<T, S, R>;
  where(field: FieldPath<T>, opOrValue: FilterOp | FilterValue, value?: FilterValue | readonly FilterValue[]): DocumentQuery<T, S, R> {
    const [op, v] = value === undefined ? ['eq', opOrValue as FilterValue] : [opOrValue as FilterOp, value];
    const filters = (this.query.filter ?? {}) as Record<string, FieldFilter | undefined>;
    const current = filters[field];
    const ops = current === undefined ? {} : isOperatorObject(current) ? { ...current } : { eq: current };
    return this.with({ filter: { ...filters, [field]: { ...ops, [op]: v } } as DocumentListQuery<T>['filter'] });
  }

  /** Full-text search: every word must match, the last as a prefix. */
  search(text: string): DocumentQuery<T, S, R> {
    return this.with({ search: text });
  }

  /** Reference (and media) paths to replace by the document they name: `expand('author', 'author.company')`. */
  expand<const P extends ExpandPath<S, R>>(...paths: P[]): DocumentQuery<T, S, Expanded<S, R, P> & object> {
    const before = typeof this.query.expand === 'string' ? this.query.expand.split(',') : (this.query.expand ?? []);
    return this.with({ expand: [...before, ...paths] }) as unknown as DocumentQuery<T, S, Expanded<S, R, P> & object>;
  }

  /**
   * `orderBy('title')`, `orderBy('views', 'desc')`, or `orderBy('-_createdAt')` (a leading `-` is
   * descending); `orderBy('title', { natural: true })` or `orderBy('-title', 'asc', { natural: true })`
   * orders text naturally, digit runs by value (docs/api.md, "Natural order").
   */
  orderBy(field: FieldPath<T> | `-${FieldPath<T>}`, options?: OrderOptions): DocumentQuery<T, S, R>;
  orderBy(field: FieldPath<T> | `-${FieldPath<T>}`, order?: 'asc' | 'desc', options?: OrderOptions): DocumentQuery<T, S, R>;
  orderBy(
    field: FieldPath<T> | `-${FieldPath<T>}`,
    orderOrOptions?: 'asc' | 'desc' | OrderOptions,
    options?: OrderOptions,
  ): DocumentQuery<T, S, R> {
    const descending = field.startsWith('-');
    const name = (descending ? field.slice(1) : field) as FieldPath<T>;
    const order = typeof orderOrOptions === 'string' ? orderOrOptions : undefined;
    const natural = (typeof orderOrOptions === 'object' ? orderOrOptions : options)?.natural;
    return this.with({
      orderBy: name,
      order: order ?? (descending ? 'desc' : 'asc'),
      natural: natural || undefined,
    });
  }

  /** Only these top-level fields (system fields always come): the result has those alone. */
  fields<const F extends Keys<R>>(fields: readonly F[]): DocumentQuery<T, S, Picked<R, F>> {
    return this.with({ fields: [...fields] }) as unknown as DocumentQuery<T, S, Picked<R, F>>;
  }

  /** A content locale's code, or `*` (docs/localization.md): filters, order and search follow its fallback chain. */
  locale(code: string): DocumentQuery<T, S, R> {
    return this.with({ locale: code });
  }

  /** Only documents with a localized field that locale has not translated (docs/localization.md, "Translation status"). */
  untranslated(code: string): DocumentQuery<T, S, R> {
    return this.with({ untranslated: code });
  }

  limit(limit: number): DocumentQuery<T, S, R> {
    return this.with({ limit });
  }

  offset(offset: number): DocumentQuery<T, S, R> {
    return this.with({ offset });
  }

  /** Start right after the row a `meta.nextCursor` names (same filters and order as its page). */
  after(cursor: string): DocumentQuery<T, S, R> {
    return this.with({ after: cursor });
  }

  /** One page: `{data, meta: {total, limit, offset, nextCursor}}`. */
  page(): Promise<ListResult<VellumDocument<R>>> {
    return this.load(this.query as DocumentListQuery<R>);
  }

  /** The first matching document, or undefined. */
  async first(): Promise<VellumDocument<R> | undefined> {
    return (await this.load({ ...this.query, limit: 1 } as DocumentListQuery<R>)).data[0];
  }

  /** Every matching document, fetched page by page. */
  async all(): Promise<Array<VellumDocument<R>>> {
    const out: Array<VellumDocument<R>> = [];
    for await (const doc of this) out.push(doc);
    return out;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<VellumDocument<R>> {
    const limit = this.query.limit ?? ITERATION_PAGE_SIZE;
    if (limit <= 0) return;
    let page: DocumentListQuery<T> = { ...this.query, limit };
    let offset = this.query.offset ?? 0;
    for (;;) {
      const { data, meta } = await this.load(page as DocumentListQuery<R>);
      yield* data;
      if (meta.nextCursor === null) return;
      if (typeof meta.nextCursor === 'string') {
        page = { ...this.query, limit, offset: undefined, after: meta.nextCursor };
        continue;
      }
      // A server without cursors: walk by offset until the total.
      offset += data.length;
      if (data.length === 0 || offset >= meta.total) return;
      page = { ...this.query, limit, offset };
    }
  }

  /** The query string this query sends. */
  toString(): string {
    return listQueryParams(this.query).toString();
  }

  private with(change: Partial<DocumentListQuery<T>>): DocumentQuery<T, S, R> {
    return new DocumentQuery<T, S, R>(this.load, { ...this.query, ...change });
  }
}
