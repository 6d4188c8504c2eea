import type { PresentUser } from '@vellum/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../api/client';
import { watchPresence } from './presence-watch';

/** A heartbeat this often keeps the entry (the server keeps it 30 s: docs/realtime.md, "Presence"). */
const HEARTBEAT_MS = 10_000;
/** Typing within this long counts as editing, here and as others' `editing` says. */
export const EDITING_MS = 30_000;

export interface DocumentPresence {
  /** The others at the document (other users; this user's other tabs are not "someone else"). */
  others: PresentUser[];
  /** The focused field (its path), or null when none is. */
  focus(field: string | null): void;
  /** The user typed in the document. */
  typed(): void;
  /** This user focused a field or typed in the last 30 s. */
  engaged: boolean;
}

/**
 * Presence at one document (docs/studio.md, "Presence"): says this tab is there (a heartbeat
 * every 10 s, and at once when the focused field or editing changes), follows who else is there
 * through the studio's one `GET /events` stream (`?presence=`), and says it left when the page goes away.
 * Failures are quiet: presence is a courtesy, the page works without it.
 */
export function useDocumentPresence(type: string, id: string | undefined, userId: string | undefined): DocumentPresence {
  const [present, setPresent] = useState<PresentUser[]>([]);
  const [engaged, setEngaged] = useState(false);
  const state = useRef({ field: null as string | null, typedAt: 0, engagedAt: 0 });

  const send = useCallback(() => {
    if (!id) return;
    const s = state.current;
    const editing = Date.now() - s.typedAt < EDITING_MS;
    void client.presence.announce(type, id, { field: s.field, editing }).catch(() => undefined);
  }, [type, id]);

  useEffect(() => {
    if (!id) return;
    setPresent([]);
    state.current = { field: null, typedAt: 0, engagedAt: 0 };
    send();
    const beat = setInterval(() => {
      send();
      // Engagement (and with it the warning) lapses 30 s after the last focus or keystroke.
      if (Date.now() - state.current.engagedAt >= EDITING_MS) setEngaged(false);
    }, HEARTBEAT_MS);
    // Carried by the studio's one event stream (`presence-watch.ts`), not a stream of its own.
    const unwatch = watchPresence(type, id, (update) => setPresent(update.present));
    const leave = (keepalive: boolean) => void client.presence.leave(type, id, { keepalive }).catch(() => undefined);
    const onHide = () => leave(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      clearInterval(beat);
      unwatch();
      window.removeEventListener('pagehide', onHide);
      leave(false);
    };
  }, [type, id, send]);

  const focus = useCallback(
    (field: string | null) => {
      const s = state.current;
      if (field !== null) {
        s.engagedAt = Date.now();
        setEngaged(true);
      }
      if (s.field === field) return;
      s.field = field;
      send();
    },
    [send],
  );

  const typed = useCallback(() => {
    const s = state.current;
    const wasEditing = Date.now() - s.typedAt < EDITING_MS;
    s.typedAt = s.engagedAt = Date.now();
    setEngaged(true);
    // The others hear at once that editing began; later keystrokes ride on the heartbeat.
    if (!wasEditing) send();
  }, [send]);

  return { others: present.filter((p) => p.userId !== userId), focus, typed, engaged };
}

/** A colour of its own for each user (from the id), dark enough for white initials (WCAG AA). */
export function presenceColour(userId: string): string {
  let hash = 0;
  for (const c of userId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 60% 28%)`;
}

/** Up to two initials of a name ("Ada Lovelace" → "AL"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((w) => [...w][0]?.toUpperCase() ?? '').join('') || '?';
}
