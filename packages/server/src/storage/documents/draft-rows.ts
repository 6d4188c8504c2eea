import { sql } from 'kysely';
import type { Conn } from '../connection.js';
import { insertSideRows, type SideRows } from './document-writes.js';
import { DOCUMENT_COLUMNS, findDocument, toStoredDocument, type StoredDocument } from './document-rows.js';
import type { DraftMarker } from './list-documents-query.js';

/** A published document's pending draft as stored (docs/drafts.md). */
export interface StoredDraft {
  id: string;
  type: string;
  /** The draft's own revision counter: its saves are revisions of kind 'draft'. */
  rev: number;
  /** The main version's `_rev` the draft was made from. */
  baseRev: number;
  updatedAt: string;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

const DRAFT_COLUMNS = ['id', 'type', 'rev', 'base_rev', 'updated_at', 'updated_by', 'data'] as const;

export async function findDraft(conn: Conn, id: string, opts: { forUpdate?: boolean } = {}): Promise<StoredDraft | undefined> {
  let q = conn.db.selectFrom('document_drafts').select(DRAFT_COLUMNS).where('id', '=', id);
  if (opts.forUpdate && conn.dialect.supportsForUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toStoredDraft(conn, row) : undefined;
}

/** The pending drafts of those of `ids` that have one (one query: an expansion level's). */
export async function findDrafts(conn: Conn, ids: readonly string[]): Promise<StoredDraft[]> {
  if (ids.length === 0) return [];
  const rows = await conn.db.selectFrom('document_drafts').select(DRAFT_COLUMNS).where('id', 'in', ids).execute();
  return rows.map((r) => toStoredDraft(conn, r));
}

function toStoredDraft(
  conn: Conn,
  row: { id: string; type: string; rev: number; base_rev: number; updated_at: string; updated_by: string | null; data: unknown },
): StoredDraft {
  return {
    id: row.id,
    type: row.type,
    rev: Number(row.rev),
    baseRev: Number(row.base_rev),
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    data: conn.dialect.decodeData(row.data),
  };
}

/**
 * A document and, when `marker`, its pending draft's revision and last save (the `_draft`
 * marker) in the same statement: a left join on the drafts' key.
 */
export async function findDocumentWithDraftMarker(
  conn: Conn,
  id: string,
  marker: boolean,
): Promise<{ doc?: StoredDocument; draftMarker?: DraftMarker }> {
  if (!marker) return { doc: await findDocument(conn, id) };
  const row = await conn.db
    .selectFrom('documents as d')
    .leftJoin('document_drafts as x', 'x.id', 'd.id')
    .select(DOCUMENT_COLUMNS.map((c) => `d.${c}` as const))
    .select(['x.rev as draft_rev', 'x.updated_at as draft_updated_at', 'x.updated_by as draft_updated_by'])
    .where('d.id', '=', id)
    .executeTakeFirst();
  if (!row) return {};
  const doc = toStoredDocument(conn, row);
  if (row.draft_rev === null || row.draft_rev === undefined) return { doc };
  return {
    doc,
    draftMarker: { rev: Number(row.draft_rev), updatedAt: String(row.draft_updated_at), updatedBy: row.draft_updated_by ?? null },
  };
}

/**
 * The revision a new draft of `id` starts after: the highest draft revision kept (a discarded or
 * published draft's saves stay in the history), so draft revisions never repeat a number.
 */
export async function lastDraftRev(conn: Conn, id: string): Promise<number> {
  const row = await conn.db
    .selectFrom('document_revisions')
    .select((eb) => eb.fn.max('rev').as('rev'))
    .where('doc_id', '=', id)
    .where('kind', '=', 'draft')
    .executeTakeFirst();
  return Number(row?.rev ?? 0);
}

/**
 * Writes a pending draft: a new one when `expectedRev` is undefined, else the next save of the one
 * stored at `expectedRev` (which becomes a revision of kind 'draft'); false when another write won.
 * `seq`, `created_*` come from the main row, so a list over drafts orders them as their documents.
 */
export async function writeDraft(conn: Conn, draft: StoredDraft, expectedRev: number | undefined, side: SideRows): Promise<boolean> {
  const data = conn.dialect.encodeData(draft.data);
  let seq: number;
  if (expectedRev === undefined) {
    const inserted = await sql<{ seq: number | string }>`insert into document_drafts
        (id, seq, type, rev, base_rev, created_at, created_by, updated_at, updated_by, data)
      select id, seq, type, ${draft.rev}, ${draft.baseRev}, created_at, created_by, ${draft.updatedAt}, ${draft.updatedBy}, ${data}
      from documents where id = ${draft.id}
      returning seq`.execute(conn.db);
    if (inserted.rows.length === 0) return false;
    seq = Number(inserted.rows[0].seq);
  } else {
    await keepAsRevision(conn, draft.id, expectedRev);
    const updated = await conn.db
      .updateTable('document_drafts')
      .set({ rev: draft.rev, updated_at: draft.updatedAt, updated_by: draft.updatedBy, data })
      .where('id', '=', draft.id)
      .where('rev', '=', expectedRev)
      .returning('seq')
      .executeTakeFirst();
    if (!updated) return false;
    seq = Number(updated.seq);
    await conn.db.deleteFrom('document_draft_refs').where('source_id', '=', draft.id).execute();
    await conn.db.deleteFrom('document_draft_media').where('source_id', '=', draft.id).execute();
  }
  await insertSideRows(conn, { refs: 'document_draft_refs', media: 'document_draft_media' }, draft.id, side);
  await conn.dialect.writeDraftSearchText(conn.db, seq, side.searchText, expectedRev !== undefined);
  return true;
}

/**
 * Drops a pending draft (its references and media go with it); its last save stays in the history
 * as a revision of kind 'draft'. False when there was none at `expectedRev`.
 */
export async function deleteDraft(conn: Conn, id: string, expectedRev: number): Promise<boolean> {
  await keepAsRevision(conn, id, expectedRev);
  const row = await conn.db
    .deleteFrom('document_drafts')
    .where('id', '=', id)
    .where('rev', '=', expectedRev)
    .returning('seq')
    .executeTakeFirst();
  if (row) await conn.dialect.deleteDraftSearchText(conn.db, Number(row.seq));
  return row !== undefined;
}

/** The draft stored at `rev` copied into the history (kind 'draft'); nothing when it moved on. */
async function keepAsRevision(conn: Conn, id: string, rev: number): Promise<void> {
  await sql`insert into document_revisions (doc_id, kind, rev, status, data, updated_at, updated_by)
    select d.id, 'draft', d.rev, m.status, d.data, d.updated_at, d.updated_by
    from document_drafts d join documents m on m.id = d.id where d.id = ${id} and d.rev = ${rev}`.execute(conn.db);
}

/** Drops a pending draft applied to its main version (published or unpublished): nothing is kept, the main version holds it now. */
export async function dropDraft(conn: Conn, id: string): Promise<void> {
  const row = await conn.db.deleteFrom('document_drafts').where('id', '=', id).returning('seq').executeTakeFirst();
  if (row) await conn.dialect.deleteDraftSearchText(conn.db, Number(row.seq));
}

/**
 * The references held by each version named: a pending draft's (`draft`) or a main version's, with
 * the field path holding each.
 */
export async function findReferencesFrom(
  conn: Conn,
  versions: ReadonlyArray<{ id: string; draft: boolean }>,
): Promise<Array<{ sourceId: string; targetId: string; path: string }>> {
  const rows: Array<{ sourceId: string; targetId: string; path: string }> = [];
  for (const [table, draft] of [
    ['document_refs', false],
    ['document_draft_refs', true],
  ] as const) {
    const ids = versions.filter((v) => v.draft === draft).map((v) => v.id);
    if (ids.length === 0) continue;
    const found = await conn.db
      .selectFrom(table)
      .select(['source_id', 'target_id', 'path'])
      .where('source_id', 'in', ids)
      .orderBy('path')
      .execute();
    rows.push(...found.map((r) => ({ sourceId: r.source_id, targetId: r.target_id, path: r.path })));
  }
  return rows;
}
