/**
 * The query keys of documents, all under `['documents']` (a stream that cannot resume refreshes
 * that whole prefix). A type's own keys sit under `['documents', 'type', type]` so that a schema
 * named like a helper key (`reference`) never collides with it.
 */
export const documentKeys = {
  all: ['documents'] as const,
  ofType: (type: string) => [...documentKeys.all, 'type', type] as const,
  lists: (type: string) => [...documentKeys.ofType(type), 'list'] as const,
  list: (type: string, params: DocumentListParams) => [...documentKeys.lists(type), params] as const,
  /** One of the home's lists of a type (`queries/home.ts`): under the type's lists, so its events refresh it. */
  home: (type: string, section: string, part: number, user: string) => [...documentKeys.lists(type), 'home', section, part, user] as const,
  /**
   * The document as the editor reads it: its pending draft where it has one (`perspective=drafts`);
   * in a content locale other than the default, one key more (`one(type, id)` is a prefix of it).
   */
  one: (type: string, id: string, locale?: string) =>
    locale ? ([...documentKeys.ofType(type), 'one', id, locale] as const) : ([...documentKeys.ofType(type), 'one', id] as const),
  /** The live (main) version of a published document, what its pending draft is compared with. */
  live: (type: string, id: string, locale?: string) =>
    locale ? ([...documentKeys.ofType(type), 'live', id, locale] as const) : ([...documentKeys.ofType(type), 'live', id] as const),
  publishPlan: (type: string, id: string) => [...documentKeys.ofType(type), 'publish-plan', id] as const,
  preview: (type: string, id: string, rev: unknown) => [...documentKeys.ofType(type), 'preview', id, rev] as const,
  revisions: (type: string, id: string) => [...documentKeys.ofType(type), 'revisions', id] as const,
  revisionsAt: (type: string, id: string, rev: unknown) => [...documentKeys.revisions(type, id), rev] as const,
  references: () => [...documentKeys.all, 'reference'] as const,
  reference: (targets: string[], id: string | undefined) => [...documentKeys.references(), targets, id] as const,
  referenceSearches: () => [...documentKeys.all, 'reference-search'] as const,
  referenceSearch: (targets: string[], search: string) => [...documentKeys.referenceSearches(), targets, search] as const,
  filterOptions: (targets: string[]) => [...documentKeys.all, 'filter-options', targets] as const,
  /** The header's search over every type: not refreshed by document events (it is typed again). */
  globalSearch: (query: string, types: string[]) => ['global-search', query, types] as const,
};

/** One page of a type's list, as the list page's address holds it. */
export interface DocumentListParams {
  search: string;
  sort: string;
  /** Order the sort's text field naturally (`natural=true`). */
  natural?: boolean;
  page: number;
  pageSize: number;
  filters: Record<string, string>;
  /** A content locale other than the default (docs/localization.md). */
  locale?: string;
  /** Only documents that locale has not wholly translated. */
  untranslated?: boolean;
}
