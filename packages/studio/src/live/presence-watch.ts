import type { PresenceUpdate } from '@vellum/client';

type Listener = (update: PresenceUpdate) => void;

/**
 * The documents whose presence the open pages follow, carried by the studio's one `GET /events`
 * stream (`LiveChanges`). A browser opens at most six HTTP/1.1 connections to one server, shared
 * by all its tabs: a second stream per open document would leave a third tab's requests queued
 * behind the streams, so presence rides on the stream every tab holds anyway.
 */
const watchers = new Map<string, Set<Listener>>();
const changeListeners = new Set<() => void>();

const keyOf = (type: string, id: string) => `${type}:${id}`;

/** Follows who is at a document until the returned function is called. */
export function watchPresence(type: string, id: string, listener: Listener): () => void {
  const key = keyOf(type, id);
  let set = watchers.get(key);
  const added = !set;
  if (!set) watchers.set(key, (set = new Set()));
  set.add(listener);
  if (added) for (const l of changeListeners) l();
  return () => {
    set.delete(listener);
    if (set.size > 0 || watchers.get(key) !== set) return;
    watchers.delete(key);
    for (const l of changeListeners) l();
  };
}

/** The `type:id` keys followed now, sorted (a stable value for the stream's parameters). */
export const watchedPresence = (): string[] => [...watchers.keys()].sort();

/** Called when a document starts or stops being followed; returns the unsubscribe function. */
export function onWatchedPresenceChange(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** An update from the stream, passed to the pages following that document. */
export function deliverPresence(update: PresenceUpdate): void {
  for (const l of watchers.get(keyOf(update.type, update.id)) ?? []) l(update);
}
