import { errors } from '../../errors.js';
import { requireSchemaAction } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { revisionMatches, type RevisionCondition } from './revision-condition.js';
import { schemaOr404 } from './schema-or-404.js';
import { draftState, pendingDraft } from './write/pending-draft.js';
import { writeDocument } from './write/write-pipeline.js';

/**
 * `DELETE /documents/:type/:id/draft` (write permission): drops the pending draft of a published
 * document; its last save stays in the history. 404 when there is none (docs/drafts.md).
 */
export async function discardDraft(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; expectedDraftRev?: RevisionCondition },
): Promise<void> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  await writeDocument(svc, {
    schema,
    target: pendingDraft,
    kind: 'delete',
    id: input.id,
    fastPath: false,
    decide(current) {
      if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
      if (!draftState(current)?.stored) throw errors.notFound('The document has no pending draft');
      if (input.expectedDraftRev !== undefined && !revisionMatches(input.expectedDraftRev, current.rev)) throw errors.preconditionFailed();
      return { kind: 'delete', before: current, at: svc.now().toISOString() };
    },
  });
}
