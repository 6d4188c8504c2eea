import { errors } from '../../errors.js';
import type { StoredDocument } from '../../storage/documents/document-rows.js';
import { requirePublishIfNeeded, requireSchemaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { jsonEqual } from '../shared/json-equal.js';
import { mergePatch } from '../shared/merge-patch.js';
import type { Services } from '../services.js';
import type { WriteInput } from './create-document.js';
import { asObject, statusOf, stripSystem } from './document-body.js';
import { toApiDocument, type ApiDocument } from './document-view.js';
import { revisionMatches, type RevisionCondition } from './revision-condition.js';
import { schemaOr404 } from './schema-or-404.js';
import { validateDocument } from './validate-document.js';
import type { WriteDecision } from './write/document-change.js';
import { mainVersion } from './write/main-version.js';
import { writeDocument } from './write/write-pipeline.js';

export interface UpdateInput extends WriteInput {
  id: string;
  /** The revisions the write may apply to (`If-Match`); absent: any. */
  expectedRev?: RevisionCondition;
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

  // 2. From the stored version to the next: If-Match, the status rule, the new fields validated as a whole.
  const decide = (current: StoredDocument | undefined): WriteDecision => {
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    if (input.expectedRev !== undefined && !revisionMatches(input.expectedRev, current.rev)) throw errors.preconditionFailed();
    const status = statusOf(body, current.status);
    requirePublishIfNeeded(actor, schema.name, current.status, status);
    const fields = validateDocument(schema, nextData(current, body), false);
    if (fields.errors.length > 0) throw errors.validation(fields.errors);
    if (
      opts.skipUnchanged === true &&
      status === current.status &&
      fields.emptySlugs.length === 0 &&
      jsonEqual(fields.data, current.data)
    ) {
      return { kind: 'none', current };
    }
    const doc: StoredDocument = {
      ...current,
      status,
      rev: current.rev + 1,
      updatedAt: svc.now().toISOString(),
      updatedBy: actorId(actor),
      data: fields.data,
    };
    return { kind: 'update', before: current, doc, fields };
  };

  // 3. Written by the pipeline: the guarded write applies only while the document is still at the
  //    revision read; the locking path has the last word.
  const written = await writeDocument(svc, { schema, target: mainVersion, kind: 'update', id: input.id, fastPath: true, decide });
  return toApiDocument(written.doc);
}
