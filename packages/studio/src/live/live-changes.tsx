import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { client } from '../api/client';
import { documentKeys } from '../queries/document-keys';
import { announceDocumentChange } from './document-changes';
import { deliverPresence, onWatchedPresenceChange, watchedPresence } from './presence-watch';

const watchedKey = () => watchedPresence().join(',');

/**
 * The studio's one subscription to `GET /events` (docs/realtime.md), held while a user is signed
 * in: a change to a document refreshes the lists of its type and the pickers that show documents,
 * and is passed on to the page editing that document, which decides itself (it may hold unsaved
 * changes). When the server cannot resume the stream (`reset`), every document query is refreshed.
 * It also carries the presence of the documents the open page follows (`presence-watch.ts`): when
 * that set changes the stream is opened again from the last event it had, so no change is missed.
 */
export function LiveChanges() {
  const queryClient = useQueryClient();
  const watched = useSyncExternalStore(onWatchedPresenceChange, watchedKey);
  // Where the next stream resumes, and whether the server refused presence (then the stream goes
  // on without it: document changes matter more than avatars).
  const last = useRef<string | undefined>(undefined);
  const [presenceRefused, setPresenceRefused] = useState(false);
  const presence = watched && !presenceRefused ? watched.split(',') : [];
  const presenceKey = presence.join(',');

  useEffect(() => {
    const refreshType = (type: string) => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists(type) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.references() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.referenceSearches() });
    };
    const keys = presenceKey ? presenceKey.split(',') : [];
    const subscription = client.events.subscribe(
      { events: ['document.*'], ...(keys.length ? { presence: keys } : {}), ...(last.current ? { lastEventId: last.current } : {}) },
      (event) => {
        if (event.subject.kind !== 'document') return;
        refreshType(event.subject.docType);
        announceDocumentChange(event);
      },
      {
        onReset: () => void queryClient.invalidateQueries({ queryKey: documentKeys.all }),
        onPresence: deliverPresence,
        // A refused stream (signed out, no permission) stays closed; the pages still work without
        // it. Refused while asking for presence: asked again without it.
        onError: (_err, willRetry) => {
          if (!willRetry && keys.length > 0) setPresenceRefused(true);
        },
      },
    );
    return () => {
      last.current = subscription.lastEventId ?? last.current;
      subscription.close();
    };
  }, [queryClient, presenceKey]);
  return null;
}
