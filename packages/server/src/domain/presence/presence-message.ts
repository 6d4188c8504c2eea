// Presence (docs/realtime.md, "Presence"): who has a document open, shared between nodes on the
// change bus and held in memory only. One entry per sign-in session, so two tabs of one user are
// two entries.

/** One person at a document, as `GET /presence/:type/:id` and `presence.updated` events show it. */
export interface PresentUser {
  /** An opaque key of the session (a hash, never the session id itself). */
  session: string;
  userId: string;
  name: string;
  /** The field the person has focused, if any. */
  field: string | null;
  /** The person typed in the document lately (the studio says so for 30 s after a keystroke). */
  editing: boolean;
  /** When the session arrived at the document (ISO 8601 UTC). */
  since: string;
}

/**
 * What travels on the change bus: a session is at a document (with what `GET` shows of it), or
 * left it.
 */
export type PresenceMessage =
  ({ op: 'here'; type: string; id: string } & PresentUser) | { op: 'left'; type: string; id: string; session: string };
