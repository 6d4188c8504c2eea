import { errors } from '../../errors.js';
import { CONTENT_ACTIONS, type ContentAction } from './permissions.js';
import type { Principal } from './principal.js';

/**
 * The policy: every permission decision of the service is made by the functions in this file.
 * Routes and operations ask; they never inspect roles or permission strings themselves.
 */

export function isAdmin(p: Principal): boolean {
  return p.role === 'admin';
}

/** A fixed permission (`users:read`, `tokens:write`, …): admin, or the permission itself. */
export function hasPermission(p: Principal, permission: string): boolean {
  return isAdmin(p) || p.permissions.has(permission);
}

/** The spec's content check: admin, `<schema>:<action>`, `<schema>:*`, `content:*`, `content:<action>`. */
export function canOnSchema(p: Principal, schema: string, action: ContentAction): boolean {
  if (isAdmin(p)) return true;
  const perms = p.permissions;
  return perms.has(`${schema}:${action}`) || perms.has(`${schema}:*`) || perms.has('content:*') || perms.has(`content:${action}`);
}

/** Throws 401 for anonymous callers and 403 for signed-in callers without the permission. */
export function requirePermission(p: Principal, permission: string): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (!hasPermission(p, permission)) throw errors.forbidden(`Missing permission ${permission}`);
}

/** Scraping `GET /metrics` without the scrape token: who may read the settings may read the numbers. */
export function requireMetricsRead(p: Principal): void {
  requirePermission(p, 'settings:read');
}

/**
 * Inviting a user: `users:invite`, or `users:write` (who may create users may invite them). The
 * role and permissions the invitation grants are checked against the caller's own afterwards.
 */
export function requireMayInvite(p: Principal): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (!hasPermission(p, 'users:invite') && !hasPermission(p, 'users:write')) throw errors.forbidden('Missing permission users:invite');
}

export function requireSchemaAction(p: Principal, schema: string, action: ContentAction): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (!canOnSchema(p, schema, action)) throw errors.forbidden(`Missing permission ${schema}:${action}`);
}

/**
 * A route about records of several types whose one type is known only once the record is read
 * (`DELETE /schedules/:id`): before that, the caller must hold `action` on at least one type.
 */
export function requireSchemaActionOnAny(p: Principal, schemas: Iterable<string>, action: ContentAction): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  for (const schema of schemas) if (canOnSchema(p, schema, action)) return;
  throw errors.forbidden(`Missing permission <type>:${action}`);
}

/**
 * Actions reserved to the admin role itself (an MFA reset): no permission grants them, so an
 * API token holding every permission is still refused.
 */
export function requireAdminRole(p: Principal): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (!(p.kind === 'user' && isAdmin(p))) throw errors.forbidden('Only an admin can do this');
}

/**
 * A signed-in caller, for the routes that need nothing more (its own account, settings reads). A
 * preview token is no session: it reads documents, media and `/events` only (docs/preview.md).
 */
export function requireAuthenticated(p: Principal): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  refusePreview(p);
}

/** 403 for a preview token on anything but document, media and event reads (docs/preview.md). */
export function refusePreview(p: Principal): void {
  if (p.kind === 'preview') throw errors.forbidden('A preview token only reads documents, media and events');
}

/** Revisions: a preview shows the current draft, not the history (docs/preview.md). */
export function canReadHistory(p: Principal): boolean {
  return p.kind !== 'preview';
}

export function requireHistoryRead(p: Principal): void {
  if (!canReadHistory(p)) throw errors.forbidden('A preview token reads the current versions, not revisions');
}

/** `GET /events`: signed-in callers and preview tokens; anonymous ones only while documents are public. */
export function requireMayListen(p: Principal, documentsPublicRead: boolean): void {
  if (p.kind === 'anonymous' && !documentsPublicRead) throw errors.unauthorized('Authentication required');
}

/**
 * Presence (docs/realtime.md, "Presence") is about people: a user's sign-in session or an OAuth
 * grant acting for one, with read permission on every status of the type. API and preview tokens
 * are not anyone at a document.
 */
export function requireMayBePresent(p: Principal, schema: string): void {
  requireMayWatchPresence(p, schema);
  if (!(p.kind === 'user' && p.sessionId) && !(p.kind === 'oauth' && p.oauth)) throw errors.forbidden('Presence is for signed-in people');
}

/** Who is at a document, and its `presence.updated` events: read permission on every status of the type. */
export function requireMayWatchPresence(p: Principal, schema: string): void {
  requireSchemaAction(p, schema, 'read');
  refusePreview(p);
}

/** Whether a stream that asked for presence still may hear it (its caller is re-resolved as permissions change). */
export function mayWatchPresence(p: Principal, schema: string): boolean {
  return p.kind !== 'anonymous' && p.kind !== 'preview' && canOnSchema(p, schema, 'read');
}

/**
 * `perspective=drafts`: pending drafts are never public. Anonymous callers are 401; signed-in
 * ones and preview tokens go on to the per-type read check (docs/drafts.md, "Reading").
 */
export function requireMayReadDrafts(p: Principal): void {
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required to read drafts');
}

/**
 * `POST …/preview`: read permission on the type. A preview token cannot issue another one (it
 * would outlive its own expiry).
 */
export function requireMayIssuePreview(p: Principal, schema: string): void {
  requireSchemaAction(p, schema, 'read');
  refusePreview(p);
}

/** The types a caller may read every status of: what a preview token it issues may read. */
export function readableTypes(p: Principal, schemas: Iterable<string>): string[] {
  return [...schemas].filter((s) => canOnSchema(p, s, 'read'));
}

/** A preview token's rights: `<type>:read` on each type it names, nothing else (docs/preview.md). */
export function previewPermissions(types: readonly string[]): ReadonlySet<string> {
  return new Set(types.map((t) => `${t}:read`));
}

/** How documents are reached: `/documents` (public reads by default) or `/collections` (every call checked). */
export type DocumentAccessMode = 'documents' | 'collections';

export interface SchemaVisibility {
  name: string;
  public: boolean;
}

/**
 * Which documents of a schema the caller may read: every status, published only, or none.
 * On `/documents`, anonymous readers (and signed-in ones without read permission) see published
 * documents of public schemas while `documents.publicRead` is on; `/collections` needs the permission.
 */
export function readScope(
  p: Principal,
  schema: SchemaVisibility,
  mode: DocumentAccessMode,
  publicRead: boolean,
): 'all' | 'published' | 'none' {
  if (canOnSchema(p, schema.name, 'read')) return 'all';
  if (mode === 'documents' && publicRead && schema.public) return 'published';
  return 'none';
}

/** Throws the right error when the caller may not read the schema at all. */
export function denyRead(p: Principal, mode: DocumentAccessMode): never {
  // /documents hides closed types behind 404 (existence is not revealed to anonymous readers).
  if (mode === 'documents' && p.kind === 'anonymous') throw errors.notFound('Document type not found');
  if (p.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  throw errors.forbidden('Missing read permission');
}

/**
 * The publish rule of the spec's state table: a write that moves a document to or from
 * `published` needs the publish permission besides write. Editing a published document in place
 * changes public content, so it counts as a write "from published" too.
 */
export function requirePublishIfNeeded(p: Principal, schema: string, before: string | undefined, after: string): void {
  if (before !== 'published' && after !== 'published') return;
  if (!canOnSchema(p, schema, 'publish')) throw errors.forbidden(`Publishing needs the ${schema}:publish or content:publish permission`);
}

/** A token may only carry permissions its creator holds (admin holds them all). */
export function canGrant(p: Principal, permission: string, schemaNames: ReadonlySet<string>): boolean {
  if (isAdmin(p) || p.permissions.has(permission)) return true;
  const [resource, action] = permission.split(':');
  const holdsAll = (schema: string | null) =>
    CONTENT_ACTIONS.every((a) => (schema ? canOnSchema(p, schema, a) : p.permissions.has(`content:${a}`)));
  // `content:*` and `<schema>:*` are within reach of a caller who holds every content action they cover.
  if (resource === 'content') return action === '*' && holdsAll(null);
  if (!schemaNames.has(resource)) return false;
  if (action === '*') return holdsAll(resource);
  // `posts:read` is within what a holder of content:read, content:* or posts:* has.
  return canOnSchema(p, resource, action as ContentAction);
}

/** Media reads are public while `media.publicRead` is on (the spec's default); otherwise `media:read`. */
export function canReadMedia(p: Principal, publicRead: boolean): boolean {
  // A preview shows the draft's images and files too (docs/preview.md).
  return publicRead || p.kind === 'preview' || hasPermission(p, 'media:read');
}

export function requireMediaRead(p: Principal, publicRead: boolean): void {
  if (!canReadMedia(p, publicRead)) requirePermission(p, 'media:read');
}

/** Upload, edit or delete: `media:upload`, `media:edit`, `media:delete` (role defaults included). */
export function requireMediaAction(p: Principal, action: 'upload' | 'edit' | 'delete'): void {
  requirePermission(p, `media:${action}`);
}

/**
 * What a caller of the event stream learns of one change (docs/realtime.md, "Permissions"):
 * `full` (the subject and the resource's data), `subject` (that it changed: kind, id, type and
 * revision, no data) or `none` (no event at all). Documents follow the `/documents` read rule:
 * readers of every status see everything; readers of published documents only see changes to
 * published documents, and learn that one was unpublished (they could read it until then), but
 * never see a draft (nor a published document's pending draft). Media follow the media read rule; users need `users:read`.
 */
export function changeVisibility(
  p: Principal,
  change: { type: string; subject: ChangeSubjectView },
  rules: { schema?: SchemaVisibility; publicRead: boolean; mediaPublicRead: boolean },
): 'full' | 'subject' | 'none' {
  const s = change.subject;
  if (s.kind === 'media') return canReadMedia(p, rules.mediaPublicRead) ? 'full' : 'none';
  if (s.kind === 'user') return hasPermission(p, 'users:read') ? 'full' : 'none';
  if (!rules.schema) return 'none';
  const scope = readScope(p, rules.schema, 'documents', rules.publicRead);
  if (scope === 'all') return 'full';
  if (scope === 'none') return 'none';
  // A pending draft is not public content, whatever the status of the main version beside it.
  if (change.type.startsWith('document.draft.')) return 'none';
  if (change.type === 'document.unpublished') return 'subject';
  return s.status === 'published' ? 'full' : 'none';
}

/** The part of a change's subject the policy looks at. */
export type ChangeSubjectView = { kind: 'document'; status: string } | { kind: 'media' } | { kind: 'user' };
