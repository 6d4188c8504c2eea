import { useEffect, useRef } from 'react';
import type { DocumentForm } from './use-document-form';

/** How long after the last change a published document's draft is saved. */
export const AUTOSAVE_DELAY_MS = 1000;

/**
 * Saves a published document's pending draft about a second after the last change
 * (docs/studio.md, "Drafts"): never while a write of the page is in flight or `paused` (the 412
 * dialog is open), and never the same values twice, so a refused save (a 422) waits for the
 * next change instead of repeating.
 */
export function useAutosave(form: DocumentForm, save: () => Promise<unknown>, paused: boolean) {
  const tried = useRef<unknown>(undefined);
  const { values, drafting, unsaved, busy } = form;
  useEffect(() => {
    if (!drafting || !unsaved || busy || paused || tried.current === values) return;
    const timer = setTimeout(() => {
      tried.current = values;
      void save();
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, drafting, unsaved, busy, paused]);
}
