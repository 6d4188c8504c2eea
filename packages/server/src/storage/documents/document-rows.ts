import type { Conn } from '../connection.js';
import { preparedQuery } from '../prepared-query.js';
import type { DocumentsTable } from '../tables.js';

export interface StoredDocument {
  id: string;
  type: string;
  status: string;
  rev: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

/** A `documents` row as read (every column but `seq`). */
export type DocumentRow = Omit<DocumentsTable, 'seq'>;

export const DOCUMENT_COLUMNS = ['id', 'type', 'status', 'rev', 'created_at', 'updated_at', 'created_by', 'updated_by', 'data'] as const;

/**
 * A new document's row as the parameters of an insert, in DOCUMENT_COLUMNS order (the inverse of
 * `toStoredDocument`). `data` is passed as the statement reads it: the dialect's `encodeData`, or
 * the object itself where it travels inside a JSON parameter.
 */
export function documentRowParams(doc: StoredDocument, data: unknown): unknown[] {
  return [doc.id, doc.type, doc.status, doc.rev, doc.createdAt, doc.updatedAt, doc.createdBy, doc.updatedBy, data];
}

export function toStoredDocument(conn: Conn, row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    rev: Number(row.rev),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    data: conn.dialect.decodeData(row.data),
  };
}

// Every read of one document and every update runs these: prepared once.
const documentById = preparedQuery((conn, param: (name: 'id') => string) =>
  conn.db.selectFrom('documents').select(DOCUMENT_COLUMNS).where('id', '=', param('id')),
);
const documentByIdForUpdate = preparedQuery((conn, param: (name: 'id') => string) => {
  const q = conn.db.selectFrom('documents').select(DOCUMENT_COLUMNS).where('id', '=', param('id'));
  return conn.dialect.supportsForUpdate ? q.forUpdate() : q;
});

export async function findDocument(conn: Conn, id: string, opts: { forUpdate?: boolean } = {}): Promise<StoredDocument | undefined> {
  const [row] = await (opts.forUpdate ? documentByIdForUpdate : documentById)(conn, { id });
  return row ? toStoredDocument(conn, row) : undefined;
}

// Every expand level and reference check runs this: one statement text for any number of ids.
const documentsByIds = preparedQuery((conn, param: (name: 'ids') => string) =>
  conn.db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where(conn.dialect.inList('id', param('ids'))),
);

export async function findDocumentsByIds(conn: Conn, ids: readonly string[]): Promise<StoredDocument[]> {
  if (ids.length === 0) return [];
  const rows = await documentsByIds(conn, { ids: conn.dialect.listParam(ids) });
  return rows.map((r) => toStoredDocument(conn, r));
}

/** What a reference check needs of a document: no data. */
export interface DocumentHead {
  id: string;
  type: string;
  status: string;
}

const documentHeadsByIds = preparedQuery((conn, param: (name: 'ids') => string) =>
  conn.db
    .selectFrom('documents')
    .select(['id', 'type', 'status'])
    .where(conn.dialect.inList('id', param('ids'))),
);

/** The type and status of each existing document of `ids` (reference checks read nothing more). */
export async function findDocumentHeads(conn: Conn, ids: readonly string[]): Promise<DocumentHead[]> {
  if (ids.length === 0) return [];
  return documentHeadsByIds(conn, { ids: conn.dialect.listParam(ids) });
}

/**
 * Documents whose fields point at `targetId`, in their main version or their pending draft (a
 * reference held only by a draft protects its target too: docs/drafts.md).
 */
export async function findReferrers(
  conn: Conn,
  targetId: string,
  limit: number,
): Promise<Array<{ id: string; type: string; path: string }>> {
  const held = (table: 'document_refs' | 'document_draft_refs') =>
    conn.db.selectFrom(table).select(['source_id', 'path']).where('target_id', '=', targetId).where('source_id', '!=', targetId);
  return conn.db
    .selectFrom(held('document_refs').union(held('document_draft_refs')).as('r'))
    .innerJoin('documents', 'documents.id', 'r.source_id')
    .select(['documents.id as id', 'documents.type as type', 'r.path as path'])
    .orderBy('documents.id')
    .limit(limit)
    .execute();
}

export async function typeHasDocuments(conn: Conn, type: string): Promise<boolean> {
  return (await conn.db.selectFrom('documents').select('id').where('type', '=', type).limit(1).executeTakeFirst()) !== undefined;
}
