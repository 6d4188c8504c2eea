import { VellumApiError, type DocumentListQuery, type ListResult, type Schedule } from '@vellum/client';
import { useQueries, useQuery } from '@tanstack/react-query';
import { client } from '../api/client';
import { documentKeys } from './document-keys';
import { documentTitle } from './document-title';
import { pollWhileDue, scheduleKeys } from './schedules';

/** How many rows each section of the home shows (docs/studio.md, "The home"). */
export const HOME_ROWS = 5;

/** A type the home reads, as the navigation names it. */
export interface HomeType {
  schema: string;
  title: string;
}

/** A document as a row of the home: where it links and what it says. */
export interface HomeDocument {
  type: string;
  typeTitle: string;
  id: string;
  title: string;
  status: string;
  /** Served from its pending draft: a published document with unpublished changes. */
  pendingDraft: boolean;
  updatedAt: string;
  updatedBy: string | null;
}

/**
 * The document sections: each is one or more list queries per type (newest edit first,
 * `HOME_ROWS` rows), merged in the browser. "Mine" is two: the user's documents that are not
 * published (main versions: a document that is not published has no pending draft, so no
 * perspective is needed and the list walks the type's `updated_at` index), and the pending drafts
 * they saved last (`filter[_draft][exists]` under `perspective=drafts`, docs/drafts.md,
 * "Reading"); no single filter says "either".
 */
export type HomeSection = 'mine' | 'others' | 'changes';

type SectionQuery = Pick<DocumentListQuery, 'filter' | 'perspective'>;

function sectionQueries(section: HomeSection, me: string): SectionQuery[] {
  switch (section) {
    case 'mine':
      return [
        { filter: { _updatedBy: me, _status: 'draft' } },
        { filter: { _updatedBy: me, _draft: { exists: true } }, perspective: 'drafts' },
      ];
    case 'others':
      return [{ filter: { _updatedBy: { ne: me } }, perspective: 'drafts' }];
    case 'changes':
      return [{ filter: { _draft: { exists: true } }, perspective: 'drafts' }];
  }
}

/**
 * The fields a row needs: the ones `documentTitle` reads that the schema has (system fields come
 * anyway), so a type with long texts is not read whole for a line of the home.
 */
export function titleFields(fieldNames: readonly string[] | undefined): string[] | undefined {
  if (!fieldNames) return undefined;
  const picked = ['title', 'name', 'label', 'slug'].filter((f) => fieldNames.includes(f));
  return picked.length > 0 ? picked : ['_id'];
}

/**
 * One section of documents across `types`: one request per type and query (the decision is in
 * docs/studio.md, "The home"), each keyed under the type's lists so a document event refreshes it
 * as it refreshes the list page. A type whose drafts the user may not read (403) is left out; any
 * other failure is the section's error.
 */
export function useHomeDocuments(section: HomeSection, me: string, types: HomeType[], fields: Map<string, string[] | undefined>) {
  const parts = sectionQueries(section, me);
  return useQueries({
    queries: types.flatMap((t) =>
      parts.map((part, i) => ({
        queryKey: documentKeys.home(t.schema, section, i, me),
        queryFn: async (): Promise<HomeDocument[]> => {
          const query: DocumentListQuery = {
            ...part,
            orderBy: '_updatedAt',
            order: 'desc',
            limit: HOME_ROWS,
            ...(fields.get(t.schema) ? { fields: fields.get(t.schema) } : {}),
          };
          try {
            const { data } = await client.collections(t.schema).list(query);
            return data.map((d) => ({
              type: t.schema,
              typeTitle: t.title,
              id: String(d._id),
              title: documentTitle(d),
              status: String(d._status),
              pendingDraft: d._version === 'draft',
              updatedAt: String(d._updatedAt),
              updatedBy: d._updatedBy ?? null,
            }));
          } catch (err) {
            if (err instanceof VellumApiError && err.status === 403) return [];
            throw err;
          }
        },
      })),
    ),
    combine: (results) => {
      const rows = new Map<string, HomeDocument>();
      for (const r of results) for (const d of r.data ?? []) rows.set(`${d.type}/${d.id}`, d);
      return {
        data: [...rows.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, HOME_ROWS),
        isPending: results.some((r) => r.isPending),
        error: results.find((r) => r.error)?.error ?? null,
      };
    },
  });
}

/** The pending schedules between two instants (this week, in the viewer's zone), the first `HOME_ROWS`. */
export function useScheduledBetween(from: Date, to: Date) {
  const query = { status: 'pending' as const, from: from.toISOString(), to: to.toISOString(), limit: HOME_ROWS };
  return useQuery({
    queryKey: scheduleKeys.list(query),
    queryFn: () => client.schedules.list(query),
    // The runner changes schedules without an event the studio hears (docs/studio.md, "Schedules").
    refetchInterval: (q) => pollWhileDue(q.state.data?.data),
  });
}

/**
 * The latest failed schedules, newest first. The server orders schedules by `at`, oldest first
 * (docs/schedules.md, "Routes"), so when there are more than `HOME_ROWS` the last page is read.
 */
export function useFailedSchedules(enabled: boolean) {
  return useQuery({
    queryKey: scheduleKeys.latestFailed(),
    enabled,
    queryFn: async (): Promise<ListResult<Schedule>> => {
      let page = await client.schedules.list({ status: 'failed', limit: HOME_ROWS });
      if (page.meta.total > HOME_ROWS)
        page = await client.schedules.list({ status: 'failed', limit: HOME_ROWS, offset: page.meta.total - HOME_ROWS });
      return { ...page, data: [...page.data].reverse() };
    },
  });
}
