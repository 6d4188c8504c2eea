import type { Conn } from '../connection.js';

export interface StoredRevision {
  rev: number;
  status: string;
  updatedAt: string;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

/** A document's main version or its pending draft, each with its own revisions (docs/drafts.md). */
export type RevisionKind = 'main' | 'draft';

/**
 * Every version of one kind, newest first: the current one is the document row (the pending
 * draft's, with the main version's status, for `draft`), earlier ones are in document_revisions.
 */
function versions(conn: Conn, docId: string, kind: RevisionKind) {
  const earlier = conn.db
    .selectFrom('document_revisions')
    .select(['rev', 'status', 'updated_at', 'updated_by', 'data'])
    .where('doc_id', '=', docId)
    .where('kind', '=', kind);
  const main = conn.db.selectFrom('documents').select(['rev', 'status', 'updated_at', 'updated_by', 'data']).where('id', '=', docId);
  if (kind === 'main') return main.unionAll(earlier);
  // The same columns, from the pending draft with its document's status: typed as the main query.
  return conn.db
    .selectFrom('document_drafts as d')
    .innerJoin('documents as m', 'm.id', 'd.id')
    .select(['d.rev as rev', 'm.status as status', 'd.updated_at as updated_at', 'd.updated_by as updated_by', 'd.data as data'])
    .where('d.id', '=', docId)
    .unionAll(earlier) as unknown as ReturnType<typeof main.unionAll>;
}

function toRevision(
  conn: Conn,
  r: { rev: number | string; status: string; updated_at: string; updated_by: string | null; data: unknown },
): StoredRevision {
  return { rev: Number(r.rev), status: r.status, updatedAt: r.updated_at, updatedBy: r.updated_by, data: conn.dialect.decodeData(r.data) };
}

export async function listRevisions(
  conn: Conn,
  docId: string,
  limit: number,
  offset: number,
  kind: RevisionKind = 'main',
): Promise<{ rows: StoredRevision[]; total: number }> {
  const rows = await versions(conn, docId, kind).orderBy('rev', 'desc').limit(limit).offset(offset).execute();
  const { n } = await conn.db
    .selectFrom(versions(conn, docId, kind).as('v'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { rows: rows.map((r) => toRevision(conn, r)), total: Number(n) };
}

export async function findRevision(
  conn: Conn,
  docId: string,
  rev: number,
  kind: RevisionKind = 'main',
): Promise<StoredRevision | undefined> {
  const r = await conn.db
    .selectFrom(versions(conn, docId, kind).as('v'))
    .selectAll()
    .where('rev', '=', rev)
    .executeTakeFirst();
  return r ? toRevision(conn, r) : undefined;
}
