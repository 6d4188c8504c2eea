import { errors } from '../../../errors.js';
import { afterCommit, inTransaction, type Conn } from '../../../storage/connection.js';
import type { BulkDocument } from '../../../storage/documents/bulk-insert-documents.js';
import type { StoredDocument } from '../../../storage/documents/document-rows.js';
import type { Notice } from '../../../storage/pubsub/message-channel.js';
import type { OutboxRow } from '../../../storage/webhooks/webhook-outbox.js';
import type { ChangeEvent } from '../../events/change-event.js';
import { announceChanges, hooksFor, outboxRows, type HookMap } from '../../events/record-changes.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import type { Services } from '../../services.js';
import { checkAndWrite, retryLostRace } from './check-and-write.js';
import type { DocumentChange, VersionChange, WriteDecision } from './document-change.js';
import { guardedWrite } from './guarded-write.js';
import type { ReferenceRule } from './write-checks.js';
import { sideRows } from './side-rows.js';
import type { WriteTarget } from './write-target.js';
import { EVERY_LOCALE, localized } from '../../locales/document-locales.js';

/** One write of one document, as the pipeline runs it (docs/architecture.md, "The document write pipeline"). */
export interface DocumentWrite {
  schema: CompiledSchema;
  /** Where the write lands: a document's main version (`mainVersion`) or its pending draft (`pendingDraft`). */
  target: WriteTarget;
  kind: DocumentChange['kind'];
  /** The document written to; absent for a create, which reads nothing. */
  id?: string;
  /**
   * Decides, from the version stored (undefined: none), what to write: the new version, or
   * nothing. A refusal (404, 412, 422, 403…) is thrown. It may run twice (fast path, then the
   * locking path on a fresh read), so it only reads what it is given.
   */
  decide(stored: StoredDocument | undefined): WriteDecision;
  /** Checks that need the lock and a fresh read: a client's id taken, a singleton's second document, a delete's referrers. */
  lockedChecks?(conn: Conn, change: DocumentChange): Promise<void>;
  /** What the documents a new version references must also be, checked on the targets its reference check reads (publish: published). */
  referenceRule?: ReferenceRule;
  /** Whether the guarded one-statement write is tried first. */
  fastPath: boolean;
  /** Attempts while a unique index is lost to a concurrent write, then 409 (creates retry; updates answer at once). */
  attempts?: number;
}

export interface WriteOutcome {
  /** The version stored: the new one, the unchanged one, or the deleted one as it was. */
  doc: StoredDocument;
  written: boolean;
  /** Only a pending draft was written: the caches of main versions stay valid. */
  draftOnly?: boolean;
}

/** Step 4's cache part: the type's version moves, the drafts' alone when only a draft changed. */
function bumpCaches(svc: Services, type: string, outcome: WriteOutcome): void {
  if (!outcome.written) return;
  if (outcome.draftOnly) svc.changes.bumpDraft(type);
  else svc.changes.bump(type);
}

/**
 * The document write pipeline: every create, update, delete and restore goes through it.
 *
 * 1. Which hooks take the events the write may make (before it: usually no query).
 * 2. Fast path (`fastPath`): read without a lock, decide, and run the target's one guarded
 *    statement with the outbox rows. Only "taken, lost the race or not checkable here" — the
 *    statement writing nothing — falls through; a refusal of the decision answers the request
 *    (the version read was the current one when read).
 * 3. Locking path: in one transaction, read with a lock, decide, the locked checks, then the
 *    checks and the statement (`checkAndWrite`: references, media, slugs, unique values) with the
 *    outbox rows in the same transaction.
 * 4. After commit: the events are announced (realtime, delivery worker) and the type's caches
 *    dropped. Events and outbox rows are built in one place for both paths, from the version
 *    being stored, after its slugs are decided.
 */
export async function writeDocument(svc: Services, write: DocumentWrite): Promise<WriteOutcome> {
  const hooks = await hooksFor(svc, svc.database, write.target.mayAnnounce(write.kind), write.schema.name);
  const outcome = await retryLostRace(
    write.attempts ?? 1,
    async () => (write.fastPath ? await fastPath(svc, write, hooks) : undefined) ?? lockingPath(svc, write, hooks),
  );
  bumpCaches(svc, write.schema.name, outcome);
  return outcome;
}

/** The events of a change and the outbox rows that queue them for the hooks that take them. */
class Effects {
  events: ChangeEvent[] = [];
  outbox: OutboxRow[] = [];
  /** The last statement carries the events' message (`takeNotice`): not published again. */
  private noticed = false;

  constructor(
    private readonly svc: Services,
    private readonly target: WriteTarget,
    private readonly hooks: HookMap,
  ) {}

  /** Built when the statement runs, so a slug generated on the way is in the payload; the last statement's count. */
  of(change: DocumentChange): readonly OutboxRow[] {
    this.events = this.target.events(change);
    // Webhooks and /events carry documents with every locale (docs/localization.md).
    if (this.svc.config.locales) for (const e of this.events) localized(this.svc, e.data, EVERY_LOCALE(this.svc.config.locales));
    this.outbox = outboxRows(this.events, this.hooks);
    this.noticed = false;
    return this.outbox;
  }

  /** For a statement that sends the events' message at its commit (storage decides which can). */
  readonly takeNotice = (): Notice | undefined => {
    const notice = this.svc.events.notice(this.events);
    this.noticed = notice !== undefined;
    return notice;
  };

  announce(): void {
    announceChanges(this.svc, this.events, this.outbox.length, this.noticed);
  }
}

async function fastPath(svc: Services, write: DocumentWrite, hooks: HookMap): Promise<WriteOutcome | undefined> {
  const stored = write.id === undefined ? undefined : await write.target.read(svc.database, write.id, false);
  const decision = write.decide(stored);
  if (decision.kind === 'none') return { doc: decision.current, written: false };
  if (decision.kind === 'delete') return undefined;
  const effects = new Effects(svc, write.target, hooks);
  const change: VersionChange = decision;
  const written = await guardedWrite(svc, write.schema, change, (side, guards) =>
    write.target.writeGuarded(svc.database, change, side, guards, effects.of(change), effects.takeNotice),
  );
  if (!written) return undefined;
  effects.announce();
  return { doc: change.doc, written: true };
}

async function lockingPath(svc: Services, write: DocumentWrite, hooks: HookMap): Promise<WriteOutcome> {
  return inTransaction(svc.database, (conn) => lockedWrite(svc, conn, write, hooks));
}

/** Step 3 inside a transaction that is already open: read with a lock, decide, check, write; announce after commit. */
async function lockedWrite(svc: Services, conn: Conn, write: DocumentWrite, hooks: HookMap): Promise<WriteOutcome> {
  const stored = write.id === undefined ? undefined : await write.target.read(conn, write.id, true);
  const decision = write.decide(stored);
  if (decision.kind === 'none') return { doc: decision.current, written: false };
  await write.lockedChecks?.(conn, decision);
  const effects = new Effects(svc, write.target, hooks);
  let written: boolean;
  if (decision.kind === 'delete') {
    written = await write.target.remove(conn, decision, effects.of(decision));
  } else {
    const change: VersionChange = decision;
    written = await checkAndWrite(
      conn,
      write.schema,
      change.fields,
      change.doc.id,
      () => write.target.write(conn, change, sideRows(write.schema, change.fields, svc.config.locales), effects.of(change)),
      { unique: write.target.checksUnique?.(change) ?? true, referenceRule: write.referenceRule },
    );
  }
  // Under the lock only a write that bypassed it could move the revision: answer, never overwrite.
  if (!written) throw errors.conflict('The document was changed by another write; retry');
  afterCommit(conn, () => effects.announce());
  const draftOnly = write.target.changesMain?.(decision) === false;
  return { doc: decision.kind === 'delete' ? decision.before : decision.doc, written: true, ...(draftOnly ? { draftOnly } : {}) };
}

/**
 * Several writes in one transaction, all or nothing, each on the locking path in the order given
 * (callers order them by id, so two such transactions lock rows in the same order): publishing a
 * document with the documents it references. A unique value lost to a concurrent write is 409.
 * `alsoInTransaction` writes what must commit with them, or not at all (a scheduled publish's
 * outcome and audit record); what it throws undoes the writes.
 */
export async function writeDocuments(
  svc: Services,
  writes: readonly DocumentWrite[],
  alsoInTransaction?: (conn: Conn) => Promise<void>,
): Promise<WriteOutcome[]> {
  const hooks: HookMap[] = [];
  for (const write of writes) hooks.push(await hooksFor(svc, svc.database, write.target.mayAnnounce(write.kind), write.schema.name));
  const outcomes = await retryLostRace(1, () =>
    inTransaction(svc.database, async (conn) => {
      const done: WriteOutcome[] = [];
      for (const [i, write] of writes.entries()) done.push(await lockedWrite(svc, conn, write, hooks[i]));
      await alsoInTransaction?.(conn);
      return done;
    }),
  );
  for (const [i, outcome] of outcomes.entries()) bumpCaches(svc, writes[i].schema.name, outcome);
  return outcomes;
}

/** A batch of new documents (a bulk insert), written by the pipeline in one transaction. */
export interface DocumentBatch {
  schema: CompiledSchema;
  target: WriteTarget;
  batch: readonly BulkDocument[];
  /** The batch's checks (references, media), in the transaction; a refusal is thrown. */
  check(conn: Conn): Promise<void>;
  /** The refusal when a unique index refuses the batch (an id, slug or unique value taken). */
  taken(): Error;
}

/**
 * A bulk insert's batch: checked and written in one transaction, the type's caches dropped after
 * commit. It announces no events and queues no deliveries: a bulk load is not a million edits
 * (docs/architecture.md, "The document write pipeline"), so step 4 is only the cache bump.
 */
export async function writeDocumentBatch(svc: Services, input: DocumentBatch): Promise<void> {
  await inTransaction(svc.database, async (conn) => {
    await input.check(conn);
    if (!(await input.target.insertMany(conn, input.batch))) throw input.taken();
  });
  svc.changes.bump(input.schema.name);
}
