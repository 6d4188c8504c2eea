import type { ChangeEvent } from '@vellum/client';

type Listener = (event: ChangeEvent) => void;
const listeners = new Set<Listener>();

/** Hears every document change the stream sends while the studio is open (`LiveChanges` passes them on). */
export function onDocumentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Passes one change on to the pages listening. */
export function announceDocumentChange(event: ChangeEvent): void {
  for (const listener of listeners) listener(event);
}
