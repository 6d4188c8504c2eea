import type { Transport } from './transport.js';

/** One person at a document (docs/realtime.md, "Presence"): one entry per sign-in session. */
export interface PresentUser {
  /** An opaque key of the session: two tabs of one user are two entries. */
  session: string;
  userId: string;
  name: string;
  /** The field the person has focused (its path), if any. */
  field: string | null;
  /** The person typed in the document lately. */
  editing: boolean;
  /** When the session arrived at the document. */
  since: string;
}

/** A `presence.updated` event of the stream: who is at the document now. */
export interface PresenceUpdate {
  type: string;
  id: string;
  present: PresentUser[];
}

export interface PresenceHeartbeat {
  field?: string | null;
  editing?: boolean;
}

const path = (type: string, id: string) => `/presence/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

/**
 * `/presence/:type/:id`: say you have a document open (a heartbeat, kept 30 s: send it every 10 s),
 * that you left, or ask who is there. Follow it live with `events.subscribe({presence: ['post:<id>']})`.
 */
export class PresenceApi {
  constructor(private readonly t: Transport) {}

  async announce(type: string, id: string, heartbeat: PresenceHeartbeat = {}): Promise<void> {
    await this.t.json({ method: 'PUT', path: path(type, id), json: heartbeat });
  }

  /** `keepalive`: the request outlives the page (sent as a tab closes). */
  async leave(type: string, id: string, opts: { keepalive?: boolean } = {}): Promise<void> {
    await this.t.json({ method: 'DELETE', path: path(type, id), keepalive: opts.keepalive });
  }

  async list(type: string, id: string): Promise<PresentUser[]> {
    return (await this.t.json<{ data: PresentUser[] }>({ method: 'GET', path: path(type, id) })).data;
  }
}
