import { requireMayIssuePreview, requireSchemaAction } from '../access/policy.js';
import type { ContentAction } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';

/**
 * The permission a document write asks before its body is read (docs/api.md, "Errors"):
 * `<type>:<action>` through the policy, for a type the registry knows. An unknown type is left to
 * the operation, which answers 404 for it to every caller, as before; so is what depends on the
 * body (publishing needs `<type>:publish` besides write). One map lookup and a few set lookups:
 * the operation asks the same question again, and the hot path pays next to nothing for it.
 */
export function requireDocumentAction(svc: Services, actor: Principal, type: string | undefined, action: ContentAction): void {
  const schema = type === undefined ? undefined : svc.schemas.get(type);
  if (schema) requireSchemaAction(actor, schema.name, action);
}

/** `POST …/preview`'s question before its body, as above: read permission, and no preview token issues another. */
export function requireDocumentPreview(svc: Services, actor: Principal, type: string | undefined): void {
  const schema = type === undefined ? undefined : svc.schemas.get(type);
  if (schema) requireMayIssuePreview(actor, schema.name);
}
