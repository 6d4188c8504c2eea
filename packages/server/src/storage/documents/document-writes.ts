import { sql } from 'kysely';
import type { Conn, TransactionSource } from '../connection.js';
import type { TakeNotice } from '../pubsub/message-channel.js';
import type { OutboxRow } from '../webhooks/webhook-outbox.js';
import type { StoredDocument } from './document-rows.js';
import { preparedQuery } from '../prepared-query.js';

export interface DocumentRef {
  targetId: string;
  path: string;
}

/** What a write stores beside the row: document references, media used, search text. */
export interface SideRows {
  refs: readonly DocumentRef[];
  /** `targetId` is a media id. */
  media: readonly DocumentRef[];
  searchText: string;
}

/** What must hold for a guarded write to happen; checked by its statement itself (guarded-writes.ts). */
export interface InsertGuards {
  /** Each id must name an existing document of one of `types`. */
  references: ReadonlyArray<{ id: string; types: readonly string[] }>;
  /** Each id must name an existing media item. */
  media: readonly string[];
}

/**
 * The guarded writes' signatures: the entry points of guarded-writes.ts and the engine's writes
 * they choose between. True when written, false when nothing was (a guard failed, the revision
 * moved on, a unique index refused a value); an engine's update may throw a unique index's
 * refusal instead, which `updateDocumentChecked` answers as false.
 *
 * `takeNotice`: an engine whose statement can send the write's change message at commit asks for
 * it (PostgreSQL); the others leave it, and the message goes after commit as before.
 */
export type GuardedInsert = (
  database: TransactionSource,
  doc: StoredDocument,
  side: SideRows,
  guards: InsertGuards,
  outbox: readonly OutboxRow[],
  takeNotice?: TakeNotice,
) => Promise<boolean>;
export type GuardedUpdate = (
  database: TransactionSource,
  doc: StoredDocument,
  expectedRev: number,
  side: SideRows,
  guards: InsertGuards,
  outbox: readonly OutboxRow[],
  takeNotice?: TakeNotice,
) => Promise<boolean>;

/** Inserts a document (its first revision is the row itself) with its references and search text. */
// Run for every create: prepared once.
type InsertParam = 'id' | 'type' | 'status' | 'rev' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy' | 'data' | 'searchText';
const insertRow = preparedQuery((conn, param: (name: InsertParam) => string) =>
  conn.db
    .insertInto('documents')
    .values({
      id: param('id'),
      type: param('type'),
      status: param('status'),
      rev: param('rev') as unknown as number,
      created_at: param('createdAt'),
      updated_at: param('updatedAt'),
      created_by: param('createdBy'),
      updated_by: param('updatedBy'),
      data: param('data'),
      ...conn.dialect.searchColumns(param('searchText')),
    })
    .returning('seq'),
);

export async function insertDocument(conn: Conn, doc: StoredDocument, side: SideRows): Promise<void> {
  const [{ seq }] = await insertRow(conn, {
    id: doc.id,
    type: doc.type,
    status: doc.status,
    rev: doc.rev,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    createdBy: doc.createdBy,
    updatedBy: doc.updatedBy,
    data: conn.dialect.encodeData(doc.data),
    searchText: side.searchText,
  });
  await writeSideRows(conn, doc, Number(seq), side, false);
}

/**
 * Writes a new version when the stored one still has `expectedRev`; false when another write won
 * the race (the caller decides between retrying and 412).
 */
export async function updateDocument(conn: Conn, doc: StoredDocument, expectedRev: number, side: SideRows): Promise<boolean> {
  // The version being replaced becomes a revision; nothing is copied when another write won.
  await sql`insert into document_revisions (doc_id, rev, status, data, updated_at, updated_by)
    select id, rev, status, data, updated_at, updated_by from documents where id = ${doc.id} and rev = ${expectedRev}`.execute(conn.db);
  const row = await conn.db
    .updateTable('documents')
    .set({
      status: doc.status,
      rev: doc.rev,
      updated_at: doc.updatedAt,
      updated_by: doc.updatedBy,
      data: conn.dialect.encodeData(doc.data),
      ...conn.dialect.searchColumns(side.searchText),
    })
    .where('id', '=', doc.id)
    .where('rev', '=', expectedRev)
    .returning('seq')
    .executeTakeFirst();
  if (!row) return false;
  await writeSideRows(conn, doc, Number(row.seq), side, true);
  return true;
}

/** Where a version's references and media are kept: the main version's tables, or its pending draft's. */
export interface SideTables {
  refs: 'document_refs' | 'document_draft_refs';
  media: 'document_media' | 'document_draft_media';
}

const MAIN_SIDE_TABLES: SideTables = { refs: 'document_refs', media: 'document_media' };

/** The references and media of the version of document `id`, into `tables` (emptied by the caller when replacing). */
export async function insertSideRows(conn: Conn, tables: SideTables, id: string, side: SideRows): Promise<void> {
  if (side.refs.length > 0) {
    await conn.db
      .insertInto(tables.refs)
      .values(side.refs.map((r) => ({ source_id: id, target_id: r.targetId, path: r.path })))
      .execute();
  }
  if (side.media.length > 0) {
    await conn.db
      .insertInto(tables.media)
      .values(side.media.map((r) => ({ source_id: id, media_id: r.targetId, path: r.path })))
      .execute();
  }
}

async function writeSideRows(conn: Conn, doc: StoredDocument, seq: number, side: SideRows, replace: boolean) {
  if (replace) {
    await conn.db.deleteFrom('document_refs').where('source_id', '=', doc.id).execute();
    await conn.db.deleteFrom('document_media').where('source_id', '=', doc.id).execute();
  }
  await insertSideRows(conn, MAIN_SIDE_TABLES, doc.id, side);
  await conn.dialect.writeSearchText(conn.db, seq, side.searchText, replace);
}

export async function deleteDocument(conn: Conn, id: string): Promise<boolean> {
  const row = await conn.db.deleteFrom('documents').where('id', '=', id).returning('seq').executeTakeFirst();
  if (!row) return false;
  await conn.dialect.deleteSearchText(conn.db, Number(row.seq));
  // Its pending draft went with it (on delete cascade); the draft's text is kept outside its row on SQLite.
  await conn.dialect.deleteDraftSearchText(conn.db, Number(row.seq));
  return true;
}
