import { errors } from '../../errors.js';
import { findReferrers } from '../../storage/documents/document-rows.js';
import { requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { refuseWhileUsed } from '../shared/refuse-while-used.js';
import { revisionMatches, type RevisionCondition } from './revision-condition.js';
import { schemaOr404 } from './schema-or-404.js';
import { mainVersion } from './write/main-version.js';
import { writeDocument } from './write/write-pipeline.js';

const MAX_LISTED_REFERRERS = 50;

/** `DELETE /documents/:type/:id`: 409 while other documents reference it, unless `force`. */
export async function deleteDocument(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode; force: boolean; expectedRev?: RevisionCondition },
): Promise<void> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'delete');
  // Deletes take the locking path only: the referrers are read under the lock. The event carries the document as it was.
  await writeDocument(svc, {
    schema,
    target: mainVersion,
    kind: 'delete',
    id: input.id,
    fastPath: false,
    decide(current) {
      if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
      if (input.expectedRev !== undefined && !revisionMatches(input.expectedRev, current.rev)) throw errors.preconditionFailed();
      return { kind: 'delete', before: current, at: svc.now().toISOString() };
    },
    async lockedChecks(conn, change) {
      if (input.force || change.kind !== 'delete') return;
      const referrers = await findReferrers(conn, change.before.id, MAX_LISTED_REFERRERS);
      refuseWhileUsed(referrers, 'Other documents reference this document; remove the references or delete with force=true', 'referenced');
    },
  });
}
