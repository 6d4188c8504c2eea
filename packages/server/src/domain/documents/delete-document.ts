import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { findDocument, findReferrers } from '../../storage/document-rows.js';
import { deleteDocument as deleteRow } from '../../storage/document-writes.js';
import { requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { schemaOr404 } from './schema-or-404.js';
import { etagMatches } from './etag.js';
import { refuseWhileUsed } from '../shared/refuse-while-used.js';
import { recordChanges } from '../events/record-changes.js';
import { deletedEvent } from './document-events.js';

const MAX_LISTED_REFERRERS = 50;

/** `DELETE /documents/:type/:id`: 409 while other documents reference it, unless `force`. */
export async function deleteDocument(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode; force: boolean; ifMatch?: string },
): Promise<void> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'delete');
  await inTransaction(svc.database, async (conn) => {
    const current = await findDocument(conn, input.id, { forUpdate: true });
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    if (input.ifMatch !== undefined && !etagMatches(input.ifMatch, current.rev)) throw errors.preconditionFailed();
    if (!input.force) {
      const referrers = await findReferrers(conn, current.id, MAX_LISTED_REFERRERS);
      refuseWhileUsed(referrers, 'Other documents reference this document; remove the references or delete with force=true', 'referenced');
    }
    await deleteRow(conn, current.id);
    // Queued and announced with the delete: the document as it was.
    await recordChanges(svc, conn, [deletedEvent(current, svc.now().toISOString())], schema.name);
  });
  svc.changes.bump(schema.name);
}
