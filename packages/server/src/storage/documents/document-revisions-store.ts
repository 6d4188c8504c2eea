import type { Conn } from '../connection.js';

export interface StoredRevision {
  rev: number;
  status: string;
  updatedAt: string;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

/** Every version of a document, newest first: the current one is the document row, earlier ones are in document_revisions. */
function versions(conn: Conn, docId: string) {
  return conn.db
    .selectFrom('documents')
    .select(['rev', 'status', 'updated_at', 'updated_by', 'data'])
    .where('id', '=', docId)
    .unionAll(
      conn.db
        .selectFrom('document_revisions')
        .select(['rev', 'status', 'updated_at', 'updated_by', 'data'])
        .where('doc_id', '=', docId)
        .where('kind', '=', 'main'),
    );
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
): Promise<{ rows: StoredRevision[]; total: number }> {
  const rows = await versions(conn, docId).orderBy('rev', 'desc').limit(limit).offset(offset).execute();
  const { n } = await conn.db
    .selectFrom('document_revisions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('doc_id', '=', docId)
    .where('kind', '=', 'main')
    .executeTakeFirstOrThrow();
  // Called for an existing document, so its current version counts too.
  return { rows: rows.map((r) => toRevision(conn, r)), total: Number(n) + 1 };
}

export async function findRevision(conn: Conn, docId: string, rev: number): Promise<StoredRevision | undefined> {
  const r = await conn.db.selectFrom(versions(conn, docId).as('v')).selectAll().where('rev', '=', rev).executeTakeFirst();
  return r ? toRevision(conn, r) : undefined;
}
