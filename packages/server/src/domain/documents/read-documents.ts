import { errors } from '../../errors.js';
import { findDocument, type StoredDocument } from '../../storage/documents/document-rows.js';
import { findDraftMarkers } from '../../storage/documents/draft-rows.js';
import { anchorable, findPageAnchor, listDocuments as listRows } from '../../storage/documents/list-documents-query.js';
import type { ListQuery, PageAnchor } from './list-query.js';
import { ANCHOR_STEP, type ListCacheEntry } from './list-cache.js';
import { listTotal } from './list-total.js';
import { encodeCursor } from './list-cursor.js';
import { denyRead, readScope, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { projectFields, toApiDocument, toDraftView, type ApiDocument } from './document-view.js';
import type { Perspective } from './perspective.js';
import { readPendingDraft } from './write/pending-draft.js';
import { expandDocuments, fieldsWithExpanded, parseExpand } from './expand.js';
import { parseListQuery, type ListParams } from './parse-list-query.js';
import { schemaOr404 } from './schema-or-404.js';

export interface ListResult {
  data: ApiDocument[];
  /**
   * `nextCursor`: `after` for the next page, null on the last (docs/api.md, "Cursor pagination");
   * `totalExact: false` only when `total` is a lower bound (docs/api.md, "Totals").
   */
  meta: { total: number; limit: number; offset: number; nextCursor: string | null; totalExact?: false };
}

/** `GET /documents/:type` and `GET /collections/:type`. */
export async function listDocuments(
  svc: Services,
  actor: Principal,
  input: { type: string; mode: DocumentAccessMode; query: ListParams },
): Promise<ListResult> {
  // 1. The type exists and the caller may read it (all statuses, or published only).
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  if (scope === 'none') denyRead(actor, input.mode);
  // 2. Query parameters, typed by the schema (400 on anything unknown or malformed).
  const q = parseListQuery(schema, input.query);
  // Pending drafts are never public: anonymous 401, without read permission 403.
  if (q.perspective === 'drafts' && scope !== 'all') denyRead(actor, 'collections');
  const expand = parseExpand(svc.schemas, schema.name, q.expand);
  // 3. One page and the total (both helped by the list cache), then expansion one level per query.
  const published = scope === 'published' || q.perspective === 'published';
  const listQuery: ListQuery = {
    type: schema.name,
    statuses: published ? ['published'] : undefined,
    ...(q.perspective === 'drafts' ? { drafts: true } : {}),
    ...q,
  };
  const cached = svc.listCache.entry(cacheKey(listQuery), svc.changes.typeVersion(schema.name, listQuery.drafts === true));
  const [page, { total, exact }] = await Promise.all([
    q.after ? listRows(svc.database, listQuery, q.after.anchor) : pageRows(svc, listQuery, cached.anchors),
    sharedTotal(svc, listQuery, cached),
  ]);
  const data = await servedVersions(svc, scope, page, q.perspective);
  const nextCursor = page.more ? encodeCursor({ orderBy: q.orderBy, direction: q.order.direction }, page.end) : null;
  await expandDocuments(svc, actor, input.mode, data, expand, q.perspective === 'drafts');
  const fields = fieldsWithExpanded(q.fields, expand);
  const meta = { total, limit: q.limit, offset: q.offset, nextCursor, ...(exact ? {} : { totalExact: false as const }) };
  return { data: data.map((d) => projectFields(d, fields)), meta };
}

/**
 * The page as served: pending drafts as drafts (`perspective=drafts`), main versions with
 * `_version: 'main'` when a perspective was asked for, and with `_draft` when they have a pending
 * draft and the caller may read every status (one query for the page; docs/drafts.md, "Markers").
 */
async function servedVersions(
  svc: Services,
  scope: 'all' | 'published',
  page: { rows: StoredDocument[]; draftIds?: ReadonlySet<string> },
  perspective?: Perspective,
): Promise<ApiDocument[]> {
  const docs = page.rows.map((r) => (page.draftIds?.has(r.id) ? toDraftView(r) : toApiDocument(r)));
  const mains = docs.filter((d) => d._version !== 'draft');
  if (perspective) for (const d of mains) d._version = 'main';
  const candidates = scope === 'all' && perspective !== 'drafts' ? mains.filter((d) => d._status === 'published') : [];
  if (candidates.length === 0) return docs;
  const markers = await findDraftMarkers(
    svc.database,
    candidates.map((d) => d._id),
  );
  for (const d of candidates) {
    const m = markers.get(d._id);
    if (m) d._draft = { _rev: m.rev, _updatedAt: m.updatedAt, _updatedBy: m.updatedBy };
  }
  return docs;
}

/** The list's total, computed once per cache entry: requests arriving meanwhile wait for the same answer. */
function sharedTotal(svc: Services, q: ListQuery, cached: ListCacheEntry) {
  if (!cached.total) {
    const pending = listTotal(svc, q);
    cached.total = pending;
    // A failed count is not kept: the next request tries again.
    pending.catch(() => {
      if (cached.total === pending) cached.total = undefined;
    });
  }
  return cached.total;
}

/** What identifies a list apart from its page: the cache key for its total and anchors. */
function cacheKey(q: ListQuery): string {
  return JSON.stringify([q.type, q.statuses, q.drafts === true, q.conditions, q.searchWords, q.order]);
}

/** A page, starting from the nearest anchor below the offset when the offset is deep. */
async function pageRows(svc: Services, q: ListQuery, anchors: Map<number, PageAnchor>) {
  if (q.offset < ANCHOR_STEP || !anchorable(q)) return listRows(svc.database, q);
  const at = Math.floor(q.offset / ANCHOR_STEP) * ANCHOR_STEP;
  let anchor = anchors.get(at);
  if (!anchor) {
    anchor = await findPageAnchor(svc.database, q, at - 1);
    if (!anchor) return listRows(svc.database, q);
    anchors.set(at, anchor);
  }
  return listRows(svc.database, { ...q, offset: q.offset - at }, anchor);
}

/** `GET /documents/:type/:id`: missing, of another type or not visible to the caller all read as 404. */
export async function getDocument(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode; expand?: string; fields?: string; perspective?: Perspective },
): Promise<ApiDocument> {
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  if (scope === 'none') denyRead(actor, input.mode);
  // Pending drafts are never public: anonymous 401, without read permission 403.
  if (input.perspective === 'drafts' && scope !== 'all') denyRead(actor, 'collections');
  const expand = parseExpand(svc.schemas, schema.name, input.expand);
  const fields = input.fields ? parseListQuery(schema, { filters: [], fields: input.fields }).fields : undefined;
  const stored = await findDocument(svc.database, input.id);
  const published = scope === 'published' || input.perspective === 'published';
  if (!stored || stored.type !== schema.name || (published && stored.status !== 'published')) {
    throw errors.notFound('Document not found');
  }
  const draft =
    input.perspective === 'drafts' && stored.status === 'published' ? await readPendingDraft(svc.database, stored.id) : undefined;
  const page = draft ? { rows: [draft], draftIds: new Set([draft.id]) } : { rows: [stored] };
  const [doc] = await servedVersions(svc, scope, page, input.perspective);
  await expandDocuments(svc, actor, input.mode, [doc], expand, input.perspective === 'drafts');
  return projectFields(doc, fieldsWithExpanded(fields, expand));
}
