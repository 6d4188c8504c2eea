import type { ListResult } from './list-result.js';
import type { Transport } from './transport.js';

/** An audit record (docs/api.md, "Audit log"). */
export interface AuditRecord {
  id: string;
  type: string;
  at: string;
  actor: { id: string | null; kind: 'user' | 'token' | 'anonymous' | string };
  ip: string | null;
  userAgent: string | null;
  target: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditQuery {
  /** Event types, e.g. `['login', 'loginFailed']`. */
  type?: string | string[];
  /** Records at or after this instant. */
  since?: string | Date;
  /** Records before this instant (exclusive). */
  until?: string | Date;
  limit?: number;
  offset?: number;
}

/** `GET /audit`, newest first (admins only). */
export function listAudit(t: Transport, query: AuditQuery = {}): Promise<ListResult<AuditRecord>> {
  return t.json({
    method: 'GET',
    path: '/audit',
    query: {
      type: Array.isArray(query.type) ? query.type.join(',') : query.type,
      since: query.since instanceof Date ? query.since.toISOString() : query.since,
      until: query.until instanceof Date ? query.until.toISOString() : query.until,
      limit: query.limit,
      offset: query.offset,
    },
  });
}
