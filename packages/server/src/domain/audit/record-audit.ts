import { insertAuditRecord } from '../../storage/audit/audit-store.js';
import type { Conn } from '../../storage/connection.js';
import type { Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import type { AuditEvent } from './audit-events.js';

/** Keys that never reach the audit log, whatever a caller passes in `details`. */
const SECRET_KEY = /password|token|secret|hash|code/i;

export interface AuditInput {
  /** Who acted; `null` for an anonymous actor (a failed sign-in). */
  actor: Principal | null;
  /** What was acted on: a user id, a token id, `settings`… */
  target?: string;
  details?: Record<string, unknown>;
  client?: { ip?: string; userAgent?: string };
}

/**
 * Writes one audit record when the log is on and the event is chosen. It runs after the action
 * it records and never fails it: a broken audit write is logged and swallowed. `conn` puts it in
 * a transaction of the caller's (the schedule runner's outcome and its record commit together).
 */
export async function recordAudit(svc: Services, type: AuditEvent, input: AuditInput, conn: Conn = svc.database): Promise<void> {
  const { enabled, events } = svc.config.security.auditLog;
  if (!enabled || !events.includes(type)) return;
  const client = input.client ?? input.actor?.client;
  try {
    await insertAuditRecord(conn, {
      id: uuidv7(),
      type,
      at: svc.now().toISOString(),
      actorId: input.actor?.id ?? null,
      actorKind: input.actor?.kind ?? 'anonymous',
      ip: client?.ip ?? null,
      userAgent: client?.userAgent?.slice(0, 512) ?? null,
      target: input.target ?? null,
      details: input.details ? scrub(input.details) : null,
    });
  } catch (err) {
    svc.log.error({ err, type }, 'audit record failed');
  }
}

function scrub(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([k]) => !SECRET_KEY.test(k)));
}
