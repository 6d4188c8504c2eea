import type { ChangeEvent } from '@vellum/client';
import { useEffect, useRef, useState } from 'react';
import { onDocumentChange } from './document-changes';

/** Someone else's change to the open document: a newer revision (of its pending draft, `draft`), or its deletion. */
export interface OutsideChange {
  rev: number;
  deleted: boolean;
  /** A revision of the pending draft rather than of the main version. */
  draft: boolean;
  /** The pending draft shown was dropped (`document.draft.deleted`): the main version is what is left. */
  discarded?: boolean;
}

/** The version the page shows: a revision of the main version, or of a published document's pending draft. */
export interface ShownVersion {
  rev: number;
  draft: boolean;
}

/** Whether the page shows `change` already (or something newer of the same kind). */
export const showsChange = (shown: ShownVersion | undefined, change: OutsideChange) =>
  !!shown && !change.deleted && (change.discarded ? !shown.draft : shown.draft === change.draft && shown.rev >= change.rev);

/**
 * Watches the open document for changes made elsewhere (another user, another tab, the API).
 * A change is someone else's when its revision is newer than the one shown; while this page is
 * saving, events wait until the save has answered, since the page's own save makes an event too
 * and its revision is known only then. A published document's pending draft counts its revisions
 * apart from the main version (docs/drafts.md), so each kind of event is compared with its own:
 * a draft's events (`document.draft.*`) with the draft shown, the main version's with the last
 * main revision the page showed (unknown while it has shown only the draft: those are left to
 * the next save's `If-Match`).
 */
export function useDocumentWatch(id: string | undefined, shown: ShownVersion | undefined, saving: boolean) {
  const [change, setChange] = useState<OutsideChange>();
  const waiting = useRef<ChangeEvent[]>([]);
  const mainRev = useRef<number | undefined>(undefined);
  if (shown && !shown.draft) mainRev.current = shown.rev;
  const state = useRef({ shown, saving });
  state.current = { shown, saving };

  const judge = (event: ChangeEvent) => {
    const subject = event.subject;
    if (subject.kind !== 'document') return;
    const { shown: now } = state.current;
    if (now === undefined) return;
    const type: string = event.type;
    const deleted = type === 'document.deleted';
    const draft = type.startsWith('document.draft.');
    const discarded = type === 'document.draft.deleted';
    if (!deleted) {
      if (discarded) {
        // News only while the page shows that draft (or a later save of it).
        if (!now.draft || subject.rev < now.rev) return;
      } else if (draft) {
        if (now.draft && subject.rev <= now.rev) return; // this page's own save, or one it already shows
      } else {
        const known = now.draft ? mainRev.current : now.rev;
        if (known === undefined || subject.rev <= known) return;
      }
    }
    setChange((before) => (before && before.deleted ? before : { rev: subject.rev, deleted, draft, discarded }));
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
  }, [saving, shown?.rev, shown?.draft]);

  // The page shows a revision at least as new as the change: nothing left to tell.
  useEffect(() => {
    if (change && showsChange(shown, change)) setChange(undefined);
  }, [shown?.rev, shown?.draft, change]);

  return { change, dismiss: () => setChange(undefined) };
}
