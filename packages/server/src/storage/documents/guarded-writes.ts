import type { Conn } from '../connection.js';
import { insertOutbox, type OutboxRow } from '../webhooks/webhook-outbox.js';
import type { StoredDocument } from './document-rows.js';
import { updateDocument, type GuardedInsert, type GuardedUpdate, type InsertGuards, type SideRows } from './document-writes.js';
import { postgresGuardedInsert, postgresGuardedUpdate } from './postgres-guarded-writes.js';
import { sqliteGuardedInsert, sqliteGuardedUpdate } from './sqlite-guarded-writes.js';

export type { InsertGuards };

/**
 * Inserts a new document with its references, media uses and search text, unless a guard fails
 * or a unique index (id, slug, unique field) already holds one of its values: then nothing is
 * written and the answer is false, and the caller finds out which with its ordinary checks.
 *
 * `outbox`: the deliveries this write queues, written with it or not at all; `takeNotice`: the
 * change message, which PostgreSQL's statement sends at its commit (document-writes.ts).
 *
 * This is the create fast path: one statement on PostgreSQL (`postgres-guarded-writes.ts`), a
 * few in one batched transaction on SQLite (`sqlite-guarded-writes.ts`).
 */
export const insertDocumentChecked: GuardedInsert = (database, doc, side, guards, outbox, takeNotice) => {
  const insert = database.dialect.dataModifyingCtes ? postgresGuardedInsert : sqliteGuardedInsert;
  return insert(database, doc, side, guards, outbox, takeNotice);
};

/**
 * Writes `doc` as the next version of a document still at `expectedRev`: the replaced version
 * becomes a revision, references and media uses are replaced, the search text renewed. False,
 * with nothing written, when the revision moved on, a guard fails or a unique index refuses a
 * value; the caller then takes the locking path, whose checks say which.
 *
 * `outbox`: the deliveries this write queues, written with it or not at all; `takeNotice` as above.
 *
 * The update fast path: on PostgreSQL one statement without BEGIN/COMMIT (with the read before
 * it, two round trips instead of nine); on SQLite the ordinary statements in one transaction.
 */
export const updateDocumentChecked: GuardedUpdate = async (database, doc, expectedRev, side, guards, outbox, takeNotice) => {
  const update = database.dialect.dataModifyingCtes ? postgresGuardedUpdate : sqliteGuardedUpdate;
  try {
    return await update(database, doc, expectedRev, side, guards, outbox, takeNotice);
  } catch (err) {
    // A taken slug or unique value: nothing was written (one statement, or a rolled-back transaction).
    if (database.dialect.isUniqueViolation(err)) return false;
    throw err;
  }
};

const NO_GUARDS: InsertGuards = { references: [], media: [] };

/**
 * The locking path's update, inside its transaction once its checks have passed under the lock:
 * the replaced version becomes a revision, the row, side rows and `outbox` are written. On
 * PostgreSQL that is the fast path's one statement without guards (one round trip instead of
 * six: a scheduled publish of 1 000 documents is mostly round trips, docs/benchmarks.md); on
 * SQLite the ordinary statements. False when the revision moved on; a unique index's refusal is
 * thrown, for the caller's `writeUnlessTaken`.
 */
export async function updateDocumentLocked(
  conn: Conn,
  doc: StoredDocument,
  expectedRev: number,
  side: SideRows,
  outbox: readonly OutboxRow[],
): Promise<boolean> {
  if (conn.dialect.dataModifyingCtes) return postgresGuardedUpdate(conn, doc, expectedRev, side, NO_GUARDS, outbox);
  if (!(await updateDocument(conn, doc, expectedRev, side))) return false;
  await insertOutbox(conn, outbox);
  return true;
}
