import { errors } from '../../errors.js';
import { updateDocumentChecked } from '../../storage/checked-document-writes.js';
import { inTransaction } from '../../storage/connection.js';
import { findDocument, type StoredDocument } from '../../storage/document-rows.js';
import { updateDocument } from '../../storage/document-writes.js';
import { requirePublishIfNeeded, requireSchemaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { jsonEqual } from '../shared/json-equal.js';
import { mergePatch } from '../shared/merge-patch.js';
import type { Services } from '../services.js';
import { checkAndWrite, LostRace, lostRaceConflict } from './check-and-write.js';
import type { WriteInput } from './create-document.js';
import { asObject, statusOf, stripSystem } from './document-body.js';
import { toApiDocument, type ApiDocument } from './document-view.js';
import { etagMatches } from './etag.js';
import { schemaOr404 } from './schema-or-404.js';
import { sideRows } from './side-rows.js';
import { validateDocument } from './validate-document.js';
import { writeIfValid } from './write-if-valid.js';
import { announceChanges, hooksFor, outboxRows, recordChanges } from '../events/record-changes.js';
import { UPDATE_EVENTS, updatedEvent } from './document-events.js';

export interface UpdateInput extends WriteInput {
  id: string;
  /** The `If-Match` header, when sent. */
  ifMatch?: string;
}

/** `PUT /documents/:type/:id`: replaces every non-system field; `_status` kept unless given. */
export function replaceDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  return updateWith(svc, actor, input, (_current, body) => body, { skipUnchanged: true });
}

/** `PATCH /documents/:type/:id`: JSON Merge Patch over the current fields. */
export function patchDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  const nextData = (current: StoredDocument, patch: Record<string, unknown>) =>
    mergePatch(current.data, stripSystem(patch)) as Record<string, unknown>;
  return updateWith(svc, actor, input, nextData, { skipUnchanged: true });
}

/**
 * Writes `data` (with optional `_status`) as the next revision of a document; used by restore too.
 * With `skipUnchanged`, a result equal to the stored version (same fields, same status, no slug
 * to generate) writes nothing: the answer is the current version, same `_rev` (docs/api.md,
 * "Documents"). Restore always writes, as documented there.
 */
export async function updateWith(
  svc: Services,
  actor: Principal,
  input: UpdateInput,
  nextData: (current: StoredDocument, body: Record<string, unknown>) => Record<string, unknown>,
  opts: { skipUnchanged?: boolean } = {},
): Promise<ApiDocument> {
  // 1. Type, write permission, body shape.
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const body = asObject(input.body);

  // 2. From the current version to the next: If-Match, the status rule, the new fields validated as a whole.
  const next = (current: StoredDocument | undefined) => {
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    if (input.ifMatch !== undefined && !etagMatches(input.ifMatch, current.rev)) throw errors.preconditionFailed();
    const status = statusOf(body, current.status);
    requirePublishIfNeeded(actor, schema.name, current.status, status);
    const result = validateDocument(schema, nextData(current, body), false);
    if (result.errors.length > 0) throw errors.validation(result.errors);
    const doc: StoredDocument = {
      ...current,
      status,
      rev: current.rev + 1,
      updatedAt: svc.now().toISOString(),
      updatedBy: actorId(actor),
      data: result.data,
    };
    const unchanged =
      opts.skipUnchanged === true && status === current.status && result.emptySlugs.length === 0 && jsonEqual(result.data, current.data);
    return { current, doc, result, unchanged };
  };

  // 3. The fast path: read without a lock, then one write that happens only if the document is
  //    still at the revision read and every check would pass. Any refusal, and any check failed
  //    on a read that may already be stale, goes to the locking path, which has the last word; a
  //    database that cannot answer the read (503) answers the request at once.
  //    A change to nothing is answered from that read: it is the version the request applied to.
  //    The update's event is queued for the webhooks that take it in the same write.
  const read = await findDocument(svc.database, input.id);
  const fast = checkedOrUndefined(() => next(read));
  if (fast?.unchanged) return toApiDocument(fast.current);
  if (fast) {
    const hooks = await hooksFor(svc, svc.database, UPDATE_EVENTS, schema.name);
    const event = updatedEvent(fast.current, fast.doc);
    let queued = 0;
    const written = await writeIfValid(svc, schema, fast.result, fast.doc, (side, guards) => {
      // Built when the write runs, so slugs generated on the way are in the payload.
      event.data = toApiDocument(fast.doc);
      const outbox = outboxRows([event], hooks);
      queued = outbox.length;
      return updateDocumentChecked(svc.database, fast.doc, fast.current.rev, side, guards, outbox);
    });
    if (written) {
      announceChanges(svc, [event], queued);
      svc.changes.bump(schema.name);
      return toApiDocument(fast.doc);
    }
  }

  // 4. The locking path: the current version locked for this transaction, then each check in turn;
  //    the rev check in the write makes a lost update impossible even without the lock.
  const updated = await inTransaction(svc.database, async (conn) => {
    const { current, doc, result, unchanged } = next(await findDocument(conn, input.id, { forUpdate: true }));
    if (unchanged) return { doc: toApiDocument(current), written: false };
    const written = await checkAndWrite(conn, schema, result, current.id, () =>
      updateDocument(conn, doc, current.rev, sideRows(schema, result)),
    );
    if (!written) throw errors.conflict('The document was changed by another write; retry');
    await recordChanges(svc, conn, [updatedEvent(current, doc)], schema.name);
    return { doc: toApiDocument(doc), written: true };
  }).catch((err: unknown) => {
    throw err instanceof LostRace ? lostRaceConflict() : err;
  });
  // 5. Committed: caches of this content are now out of date.
  if (updated.written) svc.changes.bump(schema.name);
  return updated.doc;
}

/** The next version, or undefined when a check refuses it (the locking path then decides with a fresh read). */
function checkedOrUndefined<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}
