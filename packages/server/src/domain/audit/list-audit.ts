import { errors } from '../../errors.js';
import { listAuditRecords } from '../../storage/audit-store.js';
import { isAdmin, requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { AUDIT_EVENTS } from './audit-events.js';

/** `GET /audit?type=&since=&limit=&offset=`: admins only (by role); newest first. */
export async function listAudit(
  svc: Services,
  actor: Principal,
  query: { type?: string; since?: string; limit?: unknown; offset?: unknown },
) {
  requireAuthenticated(actor);
  if (!isAdmin(actor)) throw errors.forbidden('The audit log is for admins');
  const { limit, offset } = parsePaging(query.limit, query.offset);
  const types = query.type
    ? query.type
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  for (const t of types ?? []) {
    if (!(AUDIT_EVENTS as readonly string[]).includes(t))
      throw errors.invalidInput(`type: unknown audit event ${t}`, [{ field: 'type', message: `unknown event ${t}` }]);
  }
  let since: string | undefined;
  if (query.since !== undefined) {
    const ms = /^\d{4}-\d{2}-\d{2}/.test(query.since) ? Date.parse(query.since) : Number.NaN;
    if (Number.isNaN(ms))
      throw errors.invalidInput('since must be an ISO 8601 date or date-time', [{ field: 'since', message: 'must be an ISO 8601 date' }]);
    since = new Date(ms).toISOString();
  }
  const { rows, total } = await listAuditRecords(svc.database, { types, since, limit, offset });
  return {
    data: rows.map((r) => ({
      id: r.id,
      type: r.type,
      at: r.at,
      actor: { id: r.actorId, kind: r.actorKind },
      ip: r.ip,
      userAgent: r.userAgent,
      target: r.target,
      details: r.details,
    })),
    meta: { total, limit, offset },
  };
}
