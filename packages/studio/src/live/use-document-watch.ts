import type { ChangeEvent } from '@vellum/client';
import { useEffect, useRef, useState } from 'react';
import { onDocumentChange } from './document-changes';

/** Someone else's change to the open document: a newer revision, or its deletion. */
export interface OutsideChange {
  rev: number;
  deleted: boolean;
}

/**
 * Watches the open document for changes made elsewhere (another user, another tab, the API).
 * A change is someone else's when its revision is newer than the one shown; while this page is
 * saving, events wait until the save has answered, since the page's own save makes an event too
 * and its revision is known only then.
 */
export function useDocumentWatch(id: string | undefined, shownRev: number | undefined, saving: boolean) {
  const [change, setChange] = useState<OutsideChange>();
  const waiting = useRef<ChangeEvent[]>([]);
  const state = useRef({ shownRev, saving });
  state.current = { shownRev, saving };

  const judge = (event: ChangeEvent) => {
    const subject = event.subject;
    if (subject.kind !== 'document') return;
    const { shownRev: rev } = state.current;
    if (rev === undefined) return;
    const deleted = event.type === 'document.deleted';
    if (!deleted && subject.rev <= rev) return; // this page's own save, or one it already shows
    setChange((before) => (before && before.deleted ? before : { rev: subject.rev, deleted }));
  };

  useEffect(() => {
    if (!id) return;
    setChange(undefined);
    waiting.current = [];
    return onDocumentChange((event) => {
      if (event.subject.id !== id) return;
      if (state.current.saving) waiting.current.push(event);
      else judge(event);
    });
  }, [id]);

  // A save answered: the events that came meanwhile are judged against the revision it wrote.
  useEffect(() => {
    if (saving) return;
    const held = waiting.current;
    waiting.current = [];
    for (const event of held) judge(event);
  }, [saving, shownRev]);

  // The page shows a revision at least as new as the change: nothing left to tell.
  useEffect(() => {
    if (change && !change.deleted && shownRev !== undefined && shownRev >= change.rev) setChange(undefined);
  }, [shownRev, change]);

  return { change, dismiss: () => setChange(undefined) };
}
