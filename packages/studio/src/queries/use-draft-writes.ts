import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';
import { documentKeys } from './document-keys';
import type { Doc } from './use-document-queries';
import { useContentLocale } from './content-locale';

/**
 * The writes of a published document's pending draft (docs/drafts.md): save, discard, publish
 * and unpublish. Each answer becomes the editor's cached document at once (or, where the answer
 * is not the document, the editor reads it again), and the lists and history are asked again.
 */
function useRefresh(type: string, id: string) {
  const queryClient = useQueryClient();
  const locale = useContentLocale().code;
  // `inLocale`: the answer is served in the page's content locale (a draft save); other answers
  // are the default locale's, so another locale's page reads its view again, and the default's.
  return async (shown?: Doc, inLocale = false) => {
    if (shown && (!locale || inLocale)) queryClient.setQueryData(documentKeys.one(type, id, locale), shown);
    else await queryClient.refetchQueries({ queryKey: documentKeys.one(type, id, locale), exact: true });
    if (locale) void queryClient.invalidateQueries({ queryKey: documentKeys.one(type, id), exact: true });
    void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
    void queryClient.invalidateQueries({ queryKey: documentKeys.revisions(type, id) });
    void queryClient.invalidateQueries({ queryKey: documentKeys.live(type, id) });
    void queryClient.invalidateQueries({ queryKey: documentKeys.publishPlan(type, id) });
  };
}

export interface SaveDraftInput {
  /** A merge patch of the schema's fields (`null` removes one). */
  patch: Doc;
  /** The pending draft's `_rev`, or `{main}` while there is none (docs/drafts.md, "Revisions and ETags"). */
  ifMatch?: number | { main: number };
  /**
   * Write over whatever is stored now: the current version is read first, matched instead, and
   * the patch made against it (`repatch`).
   */
  overwrite?: { repatch(current: Doc): Doc };
}

/** Saves the pending draft of a published document (`PATCH …?draft=true`, write permission). */
export function useSaveDraft(type: string, id: string) {
  const refresh = useRefresh(type, id);
  const locale = useContentLocale().code;
  return useMutation({
    mutationFn: async (input: SaveDraftInput): Promise<Doc> => {
      const api = client.collections(type);
      if (!input.overwrite) return api.saveDraft(id, input.patch, { ifMatch: input.ifMatch, locale });
      const now = await api.get(id, { perspective: 'drafts', locale });
      const ifMatch = now._version === 'draft' ? now._rev : { main: now._rev };
      return api.saveDraft(id, input.overwrite.repatch(now), { ifMatch, locale });
    },
    onSuccess: (saved) => refresh(saved, true),
  });
}

/** Drops the pending draft; the editor reads the live version again. */
export function useDiscardDraft(type: string, id: string) {
  const refresh = useRefresh(type, id);
  return useMutation({ mutationFn: () => client.collections(type).discardDraft(id), onSuccess: () => refresh() });
}

/** Publishes the pending draft (`withReferences`: the unpublished documents it points at too; `force`: a stale draft). */
export function usePublishDraft(type: string, id: string) {
  const refresh = useRefresh(type, id);
  return useMutation({
    mutationFn: (opts: { withReferences?: boolean; force?: boolean }) => client.collections(type).publish(id, opts) as Promise<Doc>,
    onSuccess: (published) => refresh(published),
  });
}

/** Unpublishes: the document becomes a draft holding its pending draft's content, if any. */
export function useUnpublishDocument(type: string, id: string) {
  const refresh = useRefresh(type, id);
  return useMutation({ mutationFn: () => client.collections(type).unpublish(id) as Promise<Doc>, onSuccess: (doc) => refresh(doc) });
}

/** What publishing would do, changing nothing (`dryRun`): the unpublished documents it references. */
export function usePublishPlan(type: string, id: string, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.publishPlan(type, id),
    enabled,
    queryFn: () => client.collections(type).publishPlan(id),
  });
}

/**
 * A preview token and URL for the open document (docs/preview.md), asked again for each revision
 * shown (a fresh URL reloads the frame after an autosave) and a minute before the token expires.
 */
export function usePreviewGrant(type: string, id: string, rev: unknown, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.preview(type, id, rev),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    // The frame keeps the last revision's page until the next one's address is known.
    placeholderData: keepPreviousData,
    queryFn: () => client.collections(type).preview(id),
    refetchInterval: (q) => {
      const expiresAt = q.state.data?.expiresAt;
      return expiresAt ? Math.max(5_000, Date.parse(expiresAt) - Date.now() - 60_000) : false;
    },
  });
}
