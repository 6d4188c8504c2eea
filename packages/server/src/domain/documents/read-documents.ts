import { errors } from '../../errors.js';
import type { StoredDocument } from '../../storage/documents/document-rows.js';
import { findDocumentWithDraftMarker } from '../../storage/documents/draft-rows.js';
import {
  anchorable,
  findPageAnchor,
  listDocuments as listRows,
  type DocumentPage,
  type DraftMarker,
} from '../../storage/documents/list-documents-query.js';
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
import { documentLocale, localized } from '../locales/document-locales.js';

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
  // 2. Query parameters, typed by the schema (400 on anything unknown or malformed); localized
  //    fields are filtered and ordered by the value the locale's chain serves (docs/localization.md).
  const locale = documentLocale(svc, input.query.locale);
  const q = parseListQuery(schema, input.query, locale);
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
  // Readers of every status see which main versions have a pending draft (read with the page).
  const marked = { draftMarkers: scope === 'all' && q.perspective !== 'drafts' };
  const cached = svc.listCache.entry(cacheKey(listQuery), svc.changes.typeVersion(schema.name, listQuery.drafts === true));
  const [page, { total, exact }] = await Promise.all([
    q.after ? listRows(svc.database, listQuery, q.after.anchor, marked) : pageRows(svc, listQuery, cached.anchors, marked),
    sharedTotal(svc, listQuery, cached),
  ]);
  const data = servedVersions(page, q.perspective);
  const nextCursor = page.more
    ? encodeCursor({ orderBy: q.orderBy, direction: q.order.direction, natural: q.order.natural }, page.end)
    : null;
  if (locale) for (const d of data) localized(svc, d, locale);
  await expandDocuments(svc, actor, input.mode, data, expand, q.perspective === 'drafts', locale);
  const fields = fieldsWithExpanded(q.fields, expand);
  const meta = { total, limit: q.limit, offset: q.offset, nextCursor, ...(exact ? {} : { totalExact: false as const }) };
  return { data: data.map((d) => projectFields(d, fields)), meta };
}

/**
 * The page as served: pending drafts as drafts (`perspective=drafts`), main versions with
 * `_version: 'main'` when a perspective was asked for, and with `_draft` when they have a pending
 * draft (`draftMarkers`, read with the page itself for callers who may read every status;
 * docs/drafts.md, "Markers").
 */
function servedVersions(
  page: DocumentPage | { rows: StoredDocument[]; draftIds?: ReadonlySet<string>; draftMarkers?: ReadonlyMap<string, DraftMarker> },
  perspective?: Perspective,
): ApiDocument[] {
  return page.rows.map((r) => {
    if (page.draftIds?.has(r.id)) return toDraftView(r);
    const doc = toApiDocument(r);
    if (perspective) doc._version = 'main';
    const m = page.draftMarkers?.get(r.id);
    if (m) doc._draft = { _rev: m.rev, _updatedAt: m.updatedAt, _updatedBy: m.updatedBy };
    return doc;
  });
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
  return JSON.stringify([q.type, q.statuses, q.drafts === true, q.conditions, q.untranslated, q.searchWords, q.order, q.pendingDraft]);
}

/** A page, starting from the nearest anchor below the offset when the offset is deep. */
async function pageRows(svc: Services, q: ListQuery, anchors: Map<number, PageAnchor>, opts: { draftMarkers: boolean }) {
  if (q.offset < ANCHOR_STEP || !anchorable(q)) return listRows(svc.database, q, undefined, opts);
  const at = Math.floor(q.offset / ANCHOR_STEP) * ANCHOR_STEP;
  let anchor = anchors.get(at);
  if (!anchor) {
    anchor = await findPageAnchor(svc.database, q, at - 1);
    if (!anchor) return listRows(svc.database, q, undefined, opts);
    anchors.set(at, anchor);
  }
  return listRows(svc.database, { ...q, offset: q.offset - at }, anchor, opts);
}

/** `GET /documents/:type/:id`: missing, of another type or not visible to the caller all read as 404. */
export async function getDocument(
  svc: Services,
  actor: Principal,
  input: {
    type: string;
    id: string;
    mode: DocumentAccessMode;
    expand?: string;
    fields?: string;
    perspective?: Perspective;
    locale?: string;
  },
): Promise<ApiDocument> {
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  if (scope === 'none') denyRead(actor, input.mode);
  // Pending drafts are never public: anonymous 401, without read permission 403.
  if (input.perspective === 'drafts' && scope !== 'all') denyRead(actor, 'collections');
  const expand = parseExpand(svc.schemas, schema.name, input.expand);
  const fields = input.fields ? parseListQuery(schema, { filters: [], fields: input.fields }).fields : undefined;
  const locale = documentLocale(svc, input.locale);
  // Readers of every status get the `_draft` marker, read with the document (one statement).
  const { doc: stored, draftMarker } = await findDocumentWithDraftMarker(
    svc.database,
    input.id,
    scope === 'all' && input.perspective !== 'drafts',
  );
  const published = scope === 'published' || input.perspective === 'published';
  if (!stored || stored.type !== schema.name || (published && stored.status !== 'published')) {
    throw errors.notFound('Document not found');
  }
  const draft =
    input.perspective === 'drafts' && stored.status === 'published' ? await readPendingDraft(svc.database, stored.id) : undefined;
  const page = draft
    ? { rows: [draft], draftIds: new Set([draft.id]) }
    : { rows: [stored], draftMarkers: draftMarker ? new Map([[stored.id, draftMarker]]) : undefined };
  const [doc] = servedVersions(page, input.perspective);
  localized(svc, doc, locale);
  await expandDocuments(svc, actor, input.mode, [doc], expand, input.perspective === 'drafts', locale);
  return projectFields(doc, fieldsWithExpanded(fields, expand));
}
