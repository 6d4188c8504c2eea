import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { client } from '../api/client';
import { documentKeys, type DocumentListParams } from './document-keys';
import { documentTitle } from './document-title';
import { useContentLocale } from './content-locale';

export type { DocumentListParams } from './document-keys';

/** A document as the studio's forms hold it: fields by name plus `_id`, `_rev`, `_status`… */
export type Doc = Record<string, unknown>;

/** A document another one can point at, as the pickers and filters show it. */
export interface DocumentChoice {
  type: string;
  id: string;
  title: string;
}

/**
 * One document through `/collections` (docs/studio.md), as the editor works on it: a published
 * document's pending draft where it has one (`perspective: 'drafts'`, docs/drafts.md), else its
 * main version. The edit page keeps what it read until it asks again itself (`refetch`): a
 * newer version reaches it only when it decides so.
 */
export function useDocument(
  type: string,
  id: string,
  opts: { enabled?: boolean; keep?: boolean; retry?: boolean; defaultLocale?: boolean } = {},
) {
  // In the page's content locale (docs/localization.md); `defaultLocale` reads the default's values.
  const shown = useContentLocale().code;
  const locale = opts.defaultLocale ? undefined : shown;
  return useQuery({
    queryKey: documentKeys.one(type, id, locale),
    enabled: opts.enabled ?? true,
    ...(opts.keep ? { staleTime: Infinity, refetchOnWindowFocus: false } : {}),
    ...(opts.retry === false ? { retry: false } : {}),
    queryFn: () => client.collections(type).get(id, { perspective: 'drafts', locale }) as Promise<Doc>,
  });
}

/** The live version of a document: its main version, without its pending draft. */
export function useLiveDocument(type: string, id: string, enabled: boolean) {
  const locale = useContentLocale().code;
  return useQuery({
    queryKey: documentKeys.live(type, id, locale),
    enabled,
    queryFn: () => client.collections(type).get(id, { locale }) as Promise<Doc>,
  });
}

/** One page of a type's documents: search, sort and filters (docs/api.md, "List queries"). */
export function useDocumentList(type: string, params: DocumentListParams) {
  return useQuery({
    queryKey: documentKeys.list(type, params),
    placeholderData: keepPreviousData,
    queryFn: () => {
      let q = client
        .collections(type)
        .query()
        .orderBy(params.sort as '_updatedAt', { natural: params.natural })
        .limit(params.pageSize)
        .offset((params.page - 1) * params.pageSize);
      if (params.search.trim()) q = q.search(params.search.trim());
      if (params.locale) q = q.locale(params.locale);
      if (params.locale && params.untranslated) q = q.untranslated(params.locale);
      for (const [field, value] of Object.entries(params.filters)) q = q.where(field as '_status', value);
      return q.page();
    },
  });
}

/**
 * The stored versions of a document, newest first; asked again for each revision shown. A
 * published document's list holds its main versions and the saves of its pending draft (each
 * with its `kind`, docs/drafts.md "Revisions and ETags"), merged by time.
 */
export function useRevisions(type: string, id: string, rev: unknown, withDrafts: boolean) {
  // Each version's fields in the page's content locale, as the form shows them.
  const locale = useContentLocale().code;
  return useQuery({
    queryKey: documentKeys.revisionsAt(type, id, [rev, withDrafts, locale]),
    queryFn: async () => {
      const api = client.collections(type);
      const [mains, drafts] = await Promise.all([
        api.revisions(id, { limit: 50, locale }),
        withDrafts ? api.revisions(id, { limit: 50, kind: 'draft', locale }) : undefined,
      ]);
      const all = [...mains.data, ...(drafts?.data ?? [])];
      return all.sort(
        (a, b) => b._updatedAt.localeCompare(a._updatedAt) || (a.kind === b.kind ? b._rev - a._rev : a.kind === 'draft' ? -1 : 1),
      );
    },
  });
}

/** Where a reference field's document is: looked for in each type the field allows (`to`); null when in none. */
async function findReference(targets: string[], id: string): Promise<DocumentChoice | null> {
  for (const type of targets) {
    try {
      const d = await client.collections(type).get(id);
      return { type, id: d._id, title: documentTitle(d) };
    } catch {
      // Not of this type (or gone): try the next one the field allows.
    }
  }
  return null;
}

/** The document a reference field holds, looked for in each type the field allows (`to`). */
export function useReferenceChoice(targets: string[], id: string | undefined) {
  return useQuery({
    queryKey: documentKeys.reference(targets, id),
    enabled: !!id,
    queryFn: () => findReference(targets, id!),
  });
}

/** The documents an array of references holds, one query each (shared with `useReferenceChoice`'s cache). */
export function useReferenceChoices(targets: string[], ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({ queryKey: documentKeys.reference(targets, id), queryFn: () => findReference(targets, id) })),
  });
}

/** The latest ten documents of each allowed type matching `search` (full-text as in the list). */
export function useReferenceSearch(targets: string[], search: string, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.referenceSearch(targets, search),
    enabled,
    queryFn: async () => {
      const lists = await Promise.all(
        targets.map(async (type) => {
          let q = client.collections(type).query().orderBy('-_updatedAt').limit(10);
          if (search) q = q.search(search);
          const { data } = await q.page();
          return data.map((d): DocumentChoice => ({ type, id: d._id, title: documentTitle(d) }));
        }),
      );
      return lists.flat();
    },
  });
}

/** The first 100 documents a reference filter may choose from, as select options. */
export function useReferenceOptions(targets: string[], enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.filterOptions(targets),
    enabled,
    queryFn: async () => {
      const lists = await Promise.all(targets.map((t) => client.collections(t).query().orderBy('-_updatedAt').limit(100).page()));
      return lists.flatMap((l) => l.data.map((d) => ({ value: String(d._id), title: documentTitle(d) })));
    },
  });
}

/** The header's search: five hits of each navigation type at once. */
export function useGlobalSearch(query: string, types: Array<{ schema: string; title: string }>) {
  return useQuery({
    queryKey: documentKeys.globalSearch(
      query,
      types.map((t) => t.schema),
    ),
    enabled: query.length >= 2 && types.length > 0,
    queryFn: async () => {
      const pages = await Promise.all(
        types.map(async (t) => {
          const { data } = await client.collections(t.schema).query().search(query).limit(5).page();
          return data.map((d) => ({ type: t.schema, typeTitle: t.title, id: String(d._id), title: documentTitle(d) }));
        }),
      );
      return pages.flat();
    },
  });
}
