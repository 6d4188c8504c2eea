import { errors } from '../../errors.js';
import { insertDocumentChecked } from '../../storage/checked-document-writes.js';
import { inTransaction } from '../../storage/connection.js';
import { findDocument, typeHasDocuments, type StoredDocument } from '../../storage/document-rows.js';
import { insertDocument } from '../../storage/document-writes.js';
import { requirePublishIfNeeded, requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { checkAndWrite, retryLostRace } from './check-and-write.js';
import { asObject, statusOf } from './document-body.js';
import { toApiDocument, type ApiDocument } from './document-view.js';
import { schemaOr404 } from './schema-or-404.js';
import { sideRows } from './side-rows.js';
import { ID_PATTERN, validateDocument } from './validate-document.js';
import { writeIfValid } from './write-if-valid.js';
import { announceChanges, hooksFor, outboxRows, recordChanges } from '../events/record-changes.js';
import type { ChangeEvent } from '../events/change-event.js';
import { CREATE_EVENTS, createdEvents } from './document-events.js';

export interface WriteInput {
  type: string;
  mode: DocumentAccessMode;
  body: unknown;
}

/** `POST /documents/:type`. */
export async function createDocument(svc: Services, actor: Principal, input: WriteInput): Promise<ApiDocument> {
  // 1. Type, write permission, body shape.
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const body = asObject(input.body);
  // 2. Status (publishing needs the publish permission too) and id.
  const status = statusOf(body, 'draft');
  requirePublishIfNeeded(actor, schema.name, undefined, status);
  const id = body._id === undefined ? uuidv7() : body._id;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw errors.validation([{ field: '_id', message: 'must be 1–64 characters of A–Z, a–z, 0–9, ".", "_" or "-"' }]);
  }
  // 3. Fields, with defaults.
  const result = validateDocument(schema, body, true);
  if (result.errors.length > 0) throw errors.validation(result.errors);

  const at = svc.now().toISOString();
  // `data` is result.data itself: slugs generated while writing land in the stored document.
  const doc: StoredDocument = {
    id,
    type: schema.name,
    status,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    createdBy: actorId(actor),
    updatedBy: actorId(actor),
    data: result.data,
  };
  // 4. The fast path: one guarded insert, which writes only when every check would pass. When it
  //    does not write, the checks run one by one in a transaction to say why (or to find a free
  //    slug). A write racing this one can take a slug or unique value between the checks and the
  //    insert; then both paths run again, and either find the next free slug or name the taken
  //    value. A singleton's create always takes the checked path: it is rare, and its check costs
  //    every other create.
  //    The events of the create are queued for the webhooks that take them in the same write
  //    (docs/webhooks.md, "Delivery"), built when the write runs, so generated slugs are in them.
  const hooks = await hooksFor(svc, svc.database, CREATE_EVENTS, schema.name);
  await retryLostRace(async () => {
    let events: ChangeEvent[] = [];
    let queued = 0;
    const fast =
      !schema.singleton &&
      (await writeIfValid(svc, schema, result, doc, (side, guards) => {
        events = createdEvents(doc);
        const outbox = outboxRows(events, hooks);
        queued = outbox.length;
        return insertDocumentChecked(svc.database, doc, side, guards, outbox);
      }));
    if (fast) return announceChanges(svc, events, queued);
    await inTransaction(svc.database, async (conn) => {
      // A generated UUIDv7 cannot be taken; a client's id can.
      if (body._id !== undefined && (await findDocument(conn, id)))
        throw errors.conflict(`A document with _id ${id} exists`, [{ field: '_id', message: 'is taken' }]);
      if (schema.singleton && (await typeHasDocuments(conn, schema.name))) {
        throw errors.conflict(`${schema.name} is a singleton and already has its document`);
      }
      await checkAndWrite(conn, schema, result, id, () => insertDocument(conn, doc, sideRows(schema, result)));
      await recordChanges(svc, conn, createdEvents(doc), schema.name);
    });
  });
  // 5. Committed: caches of this content are now out of date.
  svc.changes.bump(schema.name);
  return toApiDocument(doc);
}
