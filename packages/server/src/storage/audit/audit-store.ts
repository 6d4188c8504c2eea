import type { Conn } from '../connection.js';

export interface StoredAuditRecord {
  id: string;
  type: string;
  at: string;
  actorId: string | null;
  actorKind: string;
  ip: string | null;
  userAgent: string | null;
  target: string | null;
  details: Record<string, unknown> | null;
}

export async function insertAuditRecord(conn: Conn, r: StoredAuditRecord): Promise<void> {
  await conn.db
    .insertInto('audit_log')
    .values({
      id: r.id,
      type: r.type,
      at: r.at,
      actor_id: r.actorId,
      actor_kind: r.actorKind,
      ip: r.ip,
      user_agent: r.userAgent,
      target: r.target,
      details: r.details ? conn.dialect.encodeData(r.details) : null,
    })
    .execute();
}

export interface AuditQuery {
  types?: string[];
  /** Inclusive. */
  since?: string;
  /** Exclusive. */
  until?: string;
  limit: number;
  offset: number;
}

/** Newest first. */
export async function listAuditRecords(conn: Conn, q: AuditQuery): Promise<{ rows: StoredAuditRecord[]; total: number }> {
  let base = conn.db.selectFrom('audit_log');
  if (q.types && q.types.length > 0) base = base.where('type', 'in', q.types);
  if (q.since) base = base.where('at', '>=', q.since);
  if (q.until) base = base.where('at', '<', q.until);
  const rows = await base.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
  const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      type: r.type,
      at: r.at,
      actorId: r.actor_id,
      actorKind: r.actor_kind,
      ip: r.ip,
      userAgent: r.user_agent,
      target: r.target,
      details: r.details === null ? null : conn.dialect.decodeData(r.details),
    })),
    total: Number(n),
  };
}
