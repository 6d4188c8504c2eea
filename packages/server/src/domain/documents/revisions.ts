import { errors } from '../../errors.js';
import { findRevision, listRevisions as listRevisionRows, type RevisionKind } from '../../storage/documents/document-revisions-store.js';
import { findDocument } from '../../storage/documents/document-rows.js';
import { denyRead, readScope, requireHistoryRead, requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import type { ApiDocument } from './document-view.js';
import { schemaOr404 } from './schema-or-404.js';
import { updateWith } from './update-document.js';
import { documentLocale, localized, type DocumentLocale } from '../locales/document-locales.js';

function revisionData(svc: Services, type: string, data: Record<string, unknown>, locale: DocumentLocale): Record<string, unknown> {
  const { _type, ...served } = localized(svc, { _type: type, ...data }, locale);
  return served;
}

export interface RevisionView {
  _rev: number;
  /** `main`: a version of the document itself; `draft`: a save of its pending draft (docs/drafts.md). */
  kind: RevisionKind;
  _status: string;
  _updatedAt: string;
  _updatedBy: string | null;
  data: Record<string, unknown>;
}

/** `GET …/:id/revisions?kind=main|draft` (main when absent), newest first. Revisions hold drafts, so they need read permission (not public). */
export async function listRevisions(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode; limit?: unknown; offset?: unknown; kind?: RevisionKind; locale?: string },
): Promise<{ data: RevisionView[]; meta: { total: number; limit: number; offset: number } }> {
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  // Revisions hold drafts: published-only readers (anonymous on a public type) need to sign in.
  if (scope === 'published') requireSchemaAction(actor, schema.name, 'read');
  if (scope === 'none') denyRead(actor, input.mode);
  requireHistoryRead(actor);
  const { limit, offset } = parsePaging(input.limit, input.offset);
  const locale = documentLocale(svc, input.locale);
  const doc = await findDocument(svc.database, input.id);
  if (!doc || doc.type !== schema.name) throw errors.notFound('Document not found');
  const kind = input.kind ?? 'main';
  const { rows, total } = await listRevisionRows(svc.database, doc.id, limit, offset, kind);
  return {
    data: rows.map((r) => ({
      _rev: r.rev,
      kind,
      _status: r.status,
      _updatedAt: r.updatedAt,
      _updatedBy: r.updatedBy,
      // Each revision keeps every locale; it is served in the one asked for (docs/localization.md).
      data: locale ? revisionData(svc, schema.name, r.data, locale) : r.data,
    })),
    meta: { total, limit, offset },
  };
}

/** `POST …/:id/revisions/:rev/restore`: that revision's fields become a new revision (status kept). */
export async function restoreRevision(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; rev: number; mode: DocumentAccessMode; kind?: RevisionKind },
): Promise<ApiDocument> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const revision = await findRevision(svc.database, input.id, input.rev, input.kind ?? 'main');
  if (!revision) throw errors.notFound('Revision not found');
  // A published document's revision is restored into its pending draft (docs/drafts.md): the live
  // content changes only when the draft is published.
  return updateWith(svc, actor, { type: schema.name, id: input.id, mode: input.mode, body: {}, draft: true }, () => revision.data);
}
