import { errors } from '../../errors.js';
import { listAuditRecords } from '../../storage/audit/audit-store.js';
import { isAdmin, requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { AUDIT_EVENTS } from './audit-events.js';

/**
 * `GET /audit?type=&since=&until=&limit=&offset=`: admins only (by role); newest first. `since`
 * is inclusive and `until` exclusive, so consecutive ranges neither overlap nor leave a gap.
 */
export async function listAudit(
  svc: Services,
  actor: Principal,
  query: { type?: string; since?: string; until?: string; limit?: unknown; offset?: unknown },
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
  const since = instant('since', query.since);
  const until = instant('until', query.until);
  const { rows, total } = await listAuditRecords(svc.database, { types, since, until, limit, offset });
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

/** An ISO 8601 date or date-time query parameter, as the instant stored records compare with; else 400. */
function instant(field: 'since' | 'until', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw errors.invalidInput(`${field} must be an ISO 8601 date or date-time`, [{ field, message: 'must be an ISO 8601 date' }]);
  return new Date(ms).toISOString();
}
