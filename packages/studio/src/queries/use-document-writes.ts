import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';
import { documentKeys } from './document-keys';
import type { Doc } from './use-document-queries';
import { useContentLocale } from './content-locale';

export interface SaveDocumentInput {
  /** Absent: the document is created. */
  id?: string;
  body: Doc;
  /** The revision the form was read at (`If-Match`). */
  ifMatch?: number;
  /** Write over whatever is stored now: the current revision is read first and matched instead. */
  overwrite?: boolean;
}

/**
 * Creates or replaces a document of `type`. The stored answer becomes the document's cached
 * value at once, so the page shows the revision it wrote before the event of that write arrives.
 */
export function useSaveDocument(type: string) {
  const queryClient = useQueryClient();
  // A replace writes the page's content locale (its localized fields and the shared ones,
  // docs/localization.md); a document is created in the default locale, which its required fields need.
  const locale = useContentLocale().code;
  return useMutation({
    mutationFn: async (input: SaveDocumentInput): Promise<Doc> => {
      const api = client.collections(type);
      if (!input.id) return api.create(input.body);
      const ifMatch = input.overwrite ? (await api.get(input.id))._rev : input.ifMatch;
      return api.replace(input.id, input.body, { ifMatch, locale });
    },
    onSuccess: (saved, input) => {
      const savedId = String(saved._id);
      queryClient.setQueryData(documentKeys.one(type, savedId, input.id ? locale : undefined), saved);
      // Shared fields changed in the default locale's view too (shown beside the fields).
      if (input.id && locale) void queryClient.invalidateQueries({ queryKey: documentKeys.one(type, savedId), exact: true });
      // A created document's page opens once its list knows it.
      if (!input.id) return queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.revisions(type, savedId) });
    },
  });
}

/**
 * Restores revision `rev` of a document: a new revision with its fields, shown at once. On a
 * published document the server writes its pending draft; `kind: 'draft'` names a draft's save.
 */
export function useRestoreRevision(type: string, id: string) {
  const queryClient = useQueryClient();
  const locale = useContentLocale().code;
  return useMutation({
    mutationFn: ({ rev, kind }: { rev: number; kind?: 'main' | 'draft' }) =>
      client.collections(type).restore(id, rev, { kind }) as Promise<Doc>,
    onSuccess: async (restored) => {
      // The answer is in the default locale: another locale's page reads its view again.
      if (locale) await queryClient.refetchQueries({ queryKey: documentKeys.one(type, id) });
      else queryClient.setQueryData(documentKeys.one(type, id), restored);
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.revisions(type, id) });
    },
  });
}

/** Deletes a document; `force` deletes one that others still reference (a 409 otherwise). */
export function useDeleteDocument(type: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) => client.collections(type).delete(id, { force }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) }),
  });
}
