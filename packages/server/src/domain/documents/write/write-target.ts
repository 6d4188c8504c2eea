import type { Conn, TransactionSource } from '../../../storage/connection.js';
import type { InsertGuards } from '../../../storage/documents/guarded-writes.js';
import type { BulkDocument } from '../../../storage/documents/bulk-insert-documents.js';
import type { StoredDocument } from '../../../storage/documents/document-rows.js';
import type { SideRows } from '../../../storage/documents/document-writes.js';
import type { TakeNotice } from '../../../storage/pubsub/message-channel.js';
import type { OutboxRow } from '../../../storage/webhooks/webhook-outbox.js';
import type { ChangeEvent } from '../../events/change-event.js';
import type { WebhookEvent } from '../../webhooks/webhook-events.js';
import type { DocumentChange, VersionChange } from './document-change.js';

/**
 * Where a write lands, and what that means for storage and for events: a document's main version
 * (`main-version.ts`) or a published document's pending draft beside it (`pending-draft.ts`)
 * (docs/architecture.md, "The document write pipeline"): the same pipeline, other statements and
 * other events.
 */
export interface WriteTarget {
  /** The version a write applies to, locked for the rest of the transaction when `forUpdate`. */
  read(conn: Conn, id: string, forUpdate: boolean): Promise<StoredDocument | undefined>;
  /** The events a change of `kind` may announce: asked before the write, to learn which hooks take them. */
  mayAnnounce(kind: DocumentChange['kind']): readonly WebhookEvent[];
  /**
   * Whether a new version here is held to the unique values and slugs of the schema (absent: it
   * is). A pending draft is not: no unique index covers it, and its values are checked when it is
   * published.
   */
  checksUnique?(change: VersionChange): boolean;
  /**
   * Whether a change here changes what readers of main versions see (absent: it does). A pending
   * draft's writes do not: the caches of main versions stay valid (domain/shared/content-changes.ts).
   */
  changesMain?(change: DocumentChange): boolean;
  /** The events of a change, built from the version as stored. */
  events(change: DocumentChange): ChangeEvent[];
  /**
   * The fast path's one guarded statement: writes the version, its side rows and `outbox` only
   * when every guard holds, no unique index refuses and (for an update) the stored revision is
   * still the one read. False, with nothing written, otherwise. `takeNotice` goes to storage, whose
   * statement may send the change message at its commit.
   */
  writeGuarded(
    database: TransactionSource,
    change: VersionChange,
    side: SideRows,
    guards: InsertGuards,
    outbox: readonly OutboxRow[],
    takeNotice: TakeNotice,
  ): Promise<boolean>;
  /**
   * The locking path's statement, inside its transaction once every check has passed: false when
   * the stored revision moved on.
   */
  write(conn: Conn, change: VersionChange, side: SideRows, outbox: readonly OutboxRow[]): Promise<boolean>;
  /** A delete, inside its transaction once every check has passed: false when nothing was there. */
  remove(conn: Conn, change: Extract<DocumentChange, { kind: 'delete' }>, outbox: readonly OutboxRow[]): Promise<boolean>;
  /** Many new documents at once (a bulk insert's batch), checks done: false when a unique index refused one (nothing written). */
  insertMany(conn: Conn, batch: readonly BulkDocument[]): Promise<boolean>;
}
