import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { client } from '../api/client';
import { documentKeys } from '../queries/document-keys';
import { announceDocumentChange } from './document-changes';

/**
 * The studio's one subscription to `GET /events` (docs/realtime.md), held while a user is signed
 * in: a change to a document refreshes the lists of its type and the pickers that show documents,
 * and is passed on to the page editing that document, which decides itself (it may hold unsaved
 * changes). When the server cannot resume the stream (`reset`), every document query is refreshed.
 */
export function LiveChanges() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refreshType = (type: string) => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.references() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.referenceSearches() });
    };
    const subscription = client.events.subscribe(
      { events: ['document.*'] },
      (event) => {
        if (event.subject.kind !== 'document') return;
        refreshType(event.subject.docType);
        announceDocumentChange(event);
      },
      {
        onReset: () => void queryClient.invalidateQueries({ queryKey: documentKeys.all }),
        // A refused stream (signed out, no permission) stays closed; the pages still work without it.
        onError: () => undefined,
      },
    );
    return () => subscription.close();
  }, [queryClient]);
  return null;
}
