import type { Conn } from '../../../storage/connection.js';
import { errors } from '../../../errors.js';
import { findDocument, type StoredDocument } from '../../../storage/documents/document-rows.js';
import { findDraft } from '../../../storage/documents/draft-rows.js';
import { canOnSchema, requireSchemaAction } from '../../access/policy.js';
import { actorId, type Principal } from '../../access/principal.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import type { Services } from '../../services.js';
import { toApiDocument, type ApiDocument } from '../document-view.js';
import { schemaOr404 } from '../schema-or-404.js';
import { validateDocument } from '../validate-document.js';
import { nextVersion, type DocumentChange, type WriteDecision } from '../write/document-change.js';
import { mainWithDraft, pendingDraftOf } from '../write/main-with-draft.js';
import type { ReferenceRule } from '../write/write-checks.js';
import type { DocumentWrite } from '../write/write-pipeline.js';
import { writeDocuments } from '../write/write-pipeline.js';
import { planPublish, type Blocker, type PublishPlan } from './plan-publish.js';
import { documentLocale, localeValidation, served } from '../../locales/document-locales.js';

export interface PublishInput {
  type: string;
  id: string;
  /** Publish the unpublished documents it references (and theirs) in the same transaction. */
  withReferences?: boolean;
  /** Answer the plan; change nothing. */
  dryRun?: boolean;
  /** Publish a pending draft made from an older main version than the current one. */
  force?: boolean;
  /** Writes that commit with the publish or not at all (a schedule's outcome): see `writeDocuments`. */
  alsoInTransaction?: (conn: Conn) => Promise<void>;
}

/**
 * `POST /documents/:type/:id/publish` (publish permission; docs/drafts.md, "Publishing"): the
 * pending draft becomes the main version (or a main version that is not published is published),
 * `_rev` + 1, one revision, the draft gone. A published document never points at one that is not:
 * such references are 409, naming each, unless `withReferences` publishes them too, all or
 * nothing, each needing the publish permission on its type.
 */
export async function publishDocument(svc: Services, actor: Principal, input: PublishInput): Promise<ApiDocument | PublishPlan> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'publish');
  // A publish of one document needs no plan: the reference rule is checked under the lock, on
  // the version being published, as in every publish (the reads below serve the plan only).
  if (!input.dryRun && input.withReferences !== true) {
    const single = new Set([input.id]);
    const [outcome] = await writeDocuments(
      svc,
      [
        {
          schema,
          target: mainWithDraft,
          kind: 'update',
          id: input.id,
          fastPath: false,
          decide: (current) => publishDecision(svc, actor, schema, current, input.force === true),
          referenceRule: referencesPublished(single),
        },
      ],
      input.alsoInTransaction,
    );
    return served(svc, toApiDocument(outcome.doc));
  }
  const main = await findDocument(svc.database, input.id);
  if (!main || main.type !== schema.name) throw errors.notFound('Document not found');
  const fromDraft = main.status === 'published' && (await findDraft(svc.database, main.id)) !== undefined;
  const withReferences = input.withReferences === true;
  const plan = await planPublish(svc.database, { type: main.type, id: main.id }, fromDraft, withReferences);
  if (input.dryRun) return plan;
  const denied = plan.publish.filter((d) => !canOnSchema(actor, d.type, 'publish'));
  if (denied.length > 0) {
    throw errors.forbidden(
      `Publishing the referenced documents needs the publish permission on ${[...new Set(denied.map((d) => d.type))].join(', ')}`,
    );
  }

  const set = new Set(plan.publish.map((d) => d.id));
  // Locks are taken in id order, as any other publish takes them.
  const writes = [...plan.publish]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d): DocumentWrite => {
      const docSchema = schemaOr404(svc, d.type);
      return {
        schema: docSchema,
        target: mainWithDraft,
        kind: 'update',
        id: d.id,
        fastPath: false,
        decide: (current) => publishDecision(svc, actor, docSchema, current, d.id === main.id && input.force === true),
        referenceRule: referencesPublished(set),
      };
    });
  const outcomes = await writeDocuments(svc, writes, input.alsoInTransaction);
  return served(svc, toApiDocument(outcomes[writes.findIndex((w) => w.id === main.id)].doc));
}

/**
 * `POST /documents/:type/:id/unpublish` (publish permission): the document becomes a draft whose
 * content is its pending draft if it has one, else its last published content; the pending draft
 * is gone. A document that is not published is answered as it is.
 */
export async function unpublishDocument(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; alsoInTransaction?: PublishInput['alsoInTransaction'] },
): Promise<ApiDocument> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'publish');
  const decide = (current: StoredDocument | undefined): WriteDecision => {
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    if (current.status !== 'published') return { kind: 'none', current };
    return nextMain(svc, actor, schema, current, 'draft');
  };
  const [outcome] = await writeDocuments(
    svc,
    [{ schema, target: mainWithDraft, kind: 'update', id: input.id, fastPath: false, decide }],
    input.alsoInTransaction,
  );
  return served(svc, toApiDocument(outcome.doc));
}

function publishDecision(svc: Services, actor: Principal, schema: CompiledSchema, current: StoredDocument | undefined, force: boolean) {
  if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
  const draft = pendingDraftOf(current);
  // Published with nothing pending: nothing to do, and the answer is the document as it is.
  if (!draft && current.status === 'published') return { kind: 'none' as const, current };
  if (draft && draft.baseRev < current.rev && !force) {
    throw errors.conflict(
      `The pending draft was made from revision ${draft.baseRev}; the document is at revision ${current.rev}. Publish with force=true to replace it`,
      [{ field: '_rev', message: `draft based on ${draft.baseRev}, current ${current.rev}` }],
    );
  }
  return nextMain(svc, actor, schema, current, 'published');
}

/** The next main version: the pending draft's content (else the main version's), validated as any write, in `status`. */
function nextMain(svc: Services, actor: Principal, schema: CompiledSchema, current: StoredDocument, status: string): DocumentChange {
  // Every locale's values go along (docs/localization.md): checked as a write in the default locale checks them.
  const fields = validateDocument(
    schema,
    pendingDraftOf(current)?.data ?? current.data,
    false,
    localeValidation(documentLocale(svc, undefined)),
  );
  if (fields.errors.length > 0) throw errors.validation(fields.errors);
  return nextVersion(current, status, fields, { at: svc.now().toISOString(), updatedBy: actorId(actor) });
}

/** Under the lock, on the targets the reference check read: every document the new version references is published, or published in the same transaction. */
function referencesPublished(publishing: ReadonlySet<string>): ReferenceRule {
  return (targets, references) =>
    refuseUnpublished(
      references.flatMap((r) => {
        const target = publishing.has(r.id) ? undefined : targets.get(r.id);
        return target && target.status !== 'published' ? [{ type: target.type, id: r.id, field: r.path }] : [];
      }),
    );
}

function refuseUnpublished(blockers: readonly Blocker[]): void {
  if (blockers.length === 0) return;
  throw errors.conflict(
    'The document references documents that are not published: publish them first, or publish with withReferences: true',
    blockers.map((b) => ({ field: b.field, message: `references ${b.type} ${b.id}, which is not published` })),
  );
}
