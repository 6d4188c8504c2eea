import { errors } from '../../errors.js';
import type { StoredDocument } from '../../storage/documents/document-rows.js';
import { requirePublishIfNeeded, requireSchemaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { jsonEqual } from '../shared/json-equal.js';
import { mergePatch } from '../shared/merge-patch.js';
import type { Services } from '../services.js';
import type { WriteInput } from './create-document.js';
import { asObject, statusOf, stripSystem } from './document-body.js';
import { toApiDocument, toDraftView, type ApiDocument } from './document-view.js';
import { revisionMatches, type RevisionCondition } from './revision-condition.js';
import { schemaOr404 } from './schema-or-404.js';
import { validateDocument } from './validate-document.js';
import { nextVersion, type WriteDecision } from './write/document-change.js';
import { mainVersion } from './write/main-version.js';
import { draftState, pendingDraft } from './write/pending-draft.js';
import { writeDocument } from './write/write-pipeline.js';
import {
  documentLocale,
  localeValidation,
  localized,
  patchedData,
  replacedData,
  type DocumentLocale,
} from '../locales/document-locales.js';

export interface UpdateInput extends WriteInput {
  id: string;
  /** The revisions the write may apply to (`If-Match`); absent: any. */
  expectedRev?: RevisionCondition;
  /**
   * `?draft=true`: a published document's pending draft is written (made from the main version
   * on the first write); on a document that is not published, the same as without it.
   */
  draft?: boolean;
  /** The pending draft's revisions the write may apply to (`If-Match` with draft ETags); absent: any. */
  expectedDraftRev?: RevisionCondition;
}

/** `PUT /documents/:type/:id`: replaces every non-system field; `_status` kept unless given. */
export function replaceDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  const locale = documentLocale(svc, input.locale);
  const schema = svc.schemas.get(input.type);
  const nextData =
    locale && schema
      ? (current: StoredDocument, body: Record<string, unknown>) => replacedData(schema, locale, current.data, body)
      : (_current: StoredDocument, body: Record<string, unknown>) => body;
  return updateWith(svc, actor, input, nextData, { skipUnchanged: true, locale });
}

/** `PATCH /documents/:type/:id`: JSON Merge Patch over the current fields. */
export function patchDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  const locale = documentLocale(svc, input.locale);
  const schema = svc.schemas.get(input.type);
  const nextData =
    locale && schema
      ? (current: StoredDocument, patch: Record<string, unknown>) => patchedData(schema, locale, current.data, stripSystem(patch))
      : (current: StoredDocument, patch: Record<string, unknown>) =>
          mergePatch(current.data, stripSystem(patch)) as Record<string, unknown>;
  return updateWith(svc, actor, input, nextData, { skipUnchanged: true, locale });
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
  opts: { skipUnchanged?: boolean; locale?: DocumentLocale } = {},
): Promise<ApiDocument> {
  // Restore writes stored data as it was (every locale): its answer is in the default locale.
  const locale = opts.locale ?? documentLocale(svc, undefined);
  // 1. Type, write permission, body shape.
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const body = asObject(input.body);

  // 2. From the stored version to the next: If-Match, the status rule, the new fields validated as a whole.
  let servesDraft = false;
  const decide = (current: StoredDocument | undefined): WriteDecision => {
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    const draft = input.draft ? draftState(current) : undefined;
    servesDraft = draft?.stored === true;
    // A draft not stored yet is made from the main version: If-Match then names the main version.
    const [condition, rev] = draft?.stored
      ? [input.expectedDraftRev, current.rev]
      : [input.expectedRev, draft ? draft.baseRev : current.rev];
    if (condition !== undefined && !revisionMatches(condition, rev)) throw errors.preconditionFailed();
    if (draft && '_status' in body) {
      throw errors.validation([{ field: '_status', message: 'a draft write cannot change the status: publish or unpublish the document' }]);
    }
    const status = statusOf(body, current.status);
    // A draft write leaves the live content as it is: write permission is enough (docs/drafts.md).
    if (!draft) requirePublishIfNeeded(actor, schema.name, current.status, status);
    const fields = validateDocument(schema, nextData(current, body), false, localeValidation(locale));
    if (fields.errors.length > 0) throw errors.validation(fields.errors);
    if (
      opts.skipUnchanged === true &&
      status === current.status &&
      fields.emptySlugs.length === 0 &&
      jsonEqual(fields.data, current.data)
    ) {
      // No draft is made for a write that changes nothing: the answer is the version stored.
      return { kind: 'none', current: draft && !draft.stored ? { ...current, rev: draft.baseRev } : current };
    }
    servesDraft = draft !== undefined;
    return nextVersion(current, status, fields, { at: svc.now().toISOString(), updatedBy: actorId(actor) });
  };

  // 3. Written by the pipeline: the guarded write applies only while the document is still at the
  //    revision read; the locking path has the last word.
  const target = input.draft ? pendingDraft : mainVersion;
  const written = await writeDocument(svc, { schema, target, kind: 'update', id: input.id, fastPath: !input.draft, decide });
  return localized(svc, servesDraft ? toDraftView(written.doc) : toApiDocument(written.doc), locale);
}
