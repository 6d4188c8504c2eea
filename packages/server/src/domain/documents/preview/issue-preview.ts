import { readableTypes, requireMayIssuePreview, type DocumentAccessMode } from '../../access/policy.js';
import { actorId, type Principal } from '../../access/principal.js';
import { signPreviewToken } from '../../identity/preview-tokens.js';
import type { Services } from '../../services.js';
import { getDocument } from '../read-documents.js';
import { schemaOr404 } from '../schema-or-404.js';
import { fillPreviewUrl } from './fill-preview-url.js';

export interface PreviewGrant {
  token: string;
  /** The schema's `preview.url` filled in; absent when the schema has none. */
  url?: string;
  expiresAt: string;
}

/**
 * `POST /documents/:type/:id/preview` (docs/preview.md): a read-only bearer for the types the
 * caller may read now, and the schema's preview URL filled from what `perspective=drafts` serves
 * (the pending draft where there is one). 404 for an unknown document, as a read would answer.
 */
export async function issuePreview(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode },
): Promise<PreviewGrant> {
  const schema = schemaOr404(svc, input.type);
  requireMayIssuePreview(actor, schema.name);
  const doc = await getDocument(svc, actor, { type: schema.name, id: input.id, mode: input.mode, perspective: 'drafts' });
  const issuer = actorId(actor) ?? '';
  const types = readableTypes(actor, svc.schemas.names);
  const ttlMs = svc.config.documents.previewTokenTtlMs;
  const { token, expiresAt } = await signPreviewToken(svc.jwtKey, svc.config.security.issuer, { sub: issuer, types }, svc.now(), ttlMs);
  const template = schema.def.preview?.url;
  return { token, expiresAt, ...(template ? { url: fillPreviewUrl(template, schema.fields, doc, token) } : {}) };
}
