import { sql, type RawBuilder } from 'kysely';
import type { Conn } from '../connection.js';
import type { FieldRef, FilterValue as JsonScalar, ListQuery, PageAnchor } from '../../domain/documents/list-query.js';
import { conditionSql, operandSql, textOperandSql, untranslatedSql } from './document-filter-sql.js';
import { DOCUMENT_COLUMNS, toStoredDocument, type DocumentRow, type StoredDocument } from './document-rows.js';
import { readRows } from '../read-rows.js';

/** One page and where it ends, so the next page can start right after it (a cursor). */
export interface DocumentPage {
  rows: StoredDocument[];
  /** With `drafts`: the ids of the rows served from their pending draft. */
  draftIds?: ReadonlySet<string>;
  /** With `draftMarkers`: the pending drafts of the page's main versions, by id. */
  draftMarkers?: ReadonlyMap<string, DraftMarker>;
  /** Rows follow the page: one more than `limit` was read to know. */
  more: boolean;
  /**
   * The sort key of the page's last row; on a page with no row (`limit` 0), of the row before
   * the page. Undefined when the page starts at the beginning and holds nothing.
   */
  end?: PageAnchor;
}

/** A main version's pending draft, as its `_draft` marker shows it. */
export interface DraftMarker {
  rev: number;
  updatedAt: string;
  updatedBy: string | null;
}

/** Fields that can be null: JSON fields (absent) and the authors of documents written by no one. */
export function orderMayBeNull(field: FieldRef): boolean {
  return 'path' in field || field.system === '_createdBy' || field.system === '_updatedBy';
}

/**
 * The relation a list reads, always named `documents`: the table itself, or with `drafts` each
 * document with its pending draft's revision, last save and fields in place of the main
 * version's (a left join: still one row per document, in the main row's `seq` and creation
 * order, with the main version's status). `draft` says which rows are drafts. The search columns
 * stay the main version's: a search under `drafts` matches the main versions' text
 * (docs/drafts.md).
 */
function sourceSql(conn: Conn, q: ListQuery, markers = false, alias = 'documents'): RawBuilder<unknown> {
  if (!q.drafts) return markers ? markedSourceSql(conn, alias) : alias === 'documents' ? sql`documents` : sql`documents ${sql.raw(alias)}`;
  const search = conn.dialect.searchColumnNames.map((c) => `, coalesce(x.${c}, d.${c}) as ${c}`).join('');
  // Only documents with a pending draft (`filter[_draft][exists]=true`): an inner join, which the
  // planner can start from the type's drafts (`document_drafts_type`) rather than all its documents.
  const join = sql.raw(q.pendingDraft === true ? 'join' : 'left join');
  return sql`(select d.seq, d.id, d.type, d.status, coalesce(x.rev, d.rev) as rev, d.created_at, d.created_by,
      coalesce(x.updated_at, d.updated_at) as updated_at, coalesce(x.updated_by, d.updated_by) as updated_by,
      coalesce(x.data, d.data) as data${sql.raw(search)}, case when x.id is null then 0 else 1 end as draft
    from documents d ${join} document_drafts x on x.id = d.id) ${sql.raw(alias)}`;
}

/**
 * The main versions with their pending draft's revision and last save beside them (`draft_*`,
 * null without one): the `_draft` marker read with the page itself, not by a query of its own
 * (a left join on the drafts' key; still one row per document).
 */
function markedSourceSql(conn: Conn, alias: string): RawBuilder<unknown> {
  // The table keeps its own name inside: plans (and the query-plan tests) name it `documents`.
  const columns = [...DOCUMENT_COLUMNS, 'seq', ...conn.dialect.searchColumnNames].map((c) => `documents.${c}`).join(', ');
  return sql`(select ${sql.raw(columns)}, x.rev as draft_rev, x.updated_at as draft_updated_at, x.updated_by as draft_updated_by
    from documents left join document_drafts x on x.id = documents.id) ${sql.raw(alias)}`;
}

const MARKER_COLUMNS = ['draft_rev', 'draft_updated_at', 'draft_updated_by'];

function whereSql(conn: Conn, q: ListQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`documents.type = ${q.type}`];
  if (q.statuses) parts.push(sql`documents.status in (${sql.join(q.statuses.map((s) => sql`${s}`))})`);
  // `draft` is the drafts source's own column (sourceSql): 0 where no pending draft is served.
  // Those with one (`true`) are what the source itself joins.
  if (q.drafts && q.pendingDraft === false) parts.push(sql`documents.draft = 0`);
  for (const c of q.conditions) parts.push(conditionSql(conn, c));
  if (q.untranslated) parts.push(untranslatedSql(conn, q.untranslated));
  if (q.searchWords) parts.push(q.searchWords.length > 0 ? conn.dialect.searchMatch(q.searchWords, q.drafts) : sql`1 = 0`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** What a list sorts by: the field's value, or under a natural order its text's natural key. */
function sortKeySql(conn: Conn, q: ListQuery, table: string): RawBuilder<unknown> {
  if (!q.order.natural) return operandSql(conn, q.order.field, table);
  return conn.dialect.naturalKey(textOperandSql(conn, q.order.field, table));
}

function orderSql(conn: Conn, q: ListQuery, table: string) {
  const dir = q.order.direction === 'asc' ? 'asc' : 'desc';
  const nulls = orderMayBeNull(q.order.field) ? conn.dialect.nullsOrder(dir) : '';
  return sql`${sortKeySql(conn, q, table)} ${sql.raw(dir + nulls)}, ${sql.raw(`${table}.seq ${dir}`)}`;
}

/**
 * Rows that sort after the anchor, as one or two conditions in sort order, each one range of the
 * order's index (an OR of them would make the index be walked and filtered instead). A non-null
 * anchor is a row-value comparison (a null operand makes it unknown, so it never matches). Nulls
 * form a group of their own, first ascending and last descending (`Dialect.nullsOrder`, the
 * field indexes hold them the same way), ordered by `seq` alone.
 */
function afterAnchorParts(conn: Conn, q: ListQuery, a: PageAnchor): RawBuilder<boolean>[] {
  const expr = sortKeySql(conn, q, 'documents');
  const asc = q.order.direction === 'asc';
  const op = sql.raw(asc ? '>' : '<');
  if (a.value === null) {
    const laterNull = sql<boolean>`${expr} is null and documents.seq ${op} ${a.seq}`;
    return asc ? [laterNull, sql<boolean>`${expr} is not null`] : [laterNull];
  }
  // A natural order's anchor is the last row's text, keyed the same way in SQL.
  const bound = q.order.natural
    ? conn.dialect.naturalKey(sql`cast(${String(a.value)} as text)`)
    : 'path' in q.order.field
      ? conn.dialect.value(a.value)
      : sql`${a.value}`;
  const past = sql<boolean>`(${expr}, documents.seq) ${op} (${bound}, ${a.seq})`;
  return !asc && orderMayBeNull(q.order.field) ? [past, sql<boolean>`${expr} is null`] : [past];
}

const SYSTEM_VALUES = {
  _id: (d: StoredDocument) => d.id,
  _status: (d: StoredDocument) => d.status,
  _rev: (d: StoredDocument) => d.rev,
  _createdAt: (d: StoredDocument) => d.createdAt,
  _updatedAt: (d: StoredDocument) => d.updatedAt,
  _createdBy: (d: StoredDocument) => d.createdBy,
  _updatedBy: (d: StoredDocument) => d.updatedBy,
} as const;

/**
 * The value a row sorts by, read from the decoded document rather than from SQL, so it is typed
 * as the field (a boolean stays a boolean on SQLite) and binds back the way filter values do.
 */
function sortValue(field: FieldRef, doc: StoredDocument): JsonScalar | null {
  if ('system' in field) return SYSTEM_VALUES[field.system](doc);
  const at = (path: readonly string[]) => {
    let v: unknown = doc.data;
    for (const key of path) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
    return v;
  };
  // A localized field's value is read below the first place of its chain that holds it (document-filter-sql.ts).
  const place = field.chain?.find((prefix) => at([...prefix, field.path[0]]) != null) ?? field.chain?.at(-1) ?? [];
  const v = at([...place, ...field.path]);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** Anchors need a sort key that is never absent: the non-null system columns (by value). */
export function anchorable(q: ListQuery): boolean {
  return (
    !q.order.natural && 'system' in q.order.field && ['_id', '_status', '_rev', '_createdAt', '_updatedAt'].includes(q.order.field.system)
  );
}

/** Below this offset a page is read directly; above it, the page is chosen on the index first. */
const DEFERRED_JOIN_FROM = 200;

type PageRow = DocumentRow & {
  seq: number | string;
  draft?: number | string | boolean;
  draft_rev?: number | string | null;
  draft_updated_at?: string | null;
  draft_updated_by?: string | null;
};

/**
 * Whether a list's SQL can take long whatever the indexes hold: a search, a JSON order, any filter
 * but status (the system indexes serve type, status and the time orders), or skipping many rows.
 * Such reads go where they cannot hold the event loop (`readRows`).
 */
function maySlow(q: ListQuery): boolean {
  const statusOnly = q.conditions.every((c) => 'system' in c.field && c.field.system === '_status');
  return (
    q.searchWords !== undefined ||
    q.untranslated !== undefined ||
    'path' in q.order.field ||
    q.order.natural === true ||
    !statusOnly ||
    q.offset >= DEFERRED_JOIN_FROM
  );
}

/**
 * One page of documents, and whether more follow (`limit + 1` rows are read). For deep offsets
 * the page is chosen on the indexes alone (a "deferred join": only `seq` is read while skipping
 * rows), then the full rows of that page are fetched. With an anchor the page starts right after
 * that row, so only the rows past it are skipped.
 */
export async function listDocuments(
  conn: Conn,
  q: ListQuery,
  after?: PageAnchor,
  opts: { draftMarkers?: boolean } = {},
): Promise<DocumentPage> {
  const parts = after ? afterAnchorParts(conn, q, after) : [];
  const whereWith = (part?: RawBuilder<boolean>) => (part ? sql`${whereSql(conn, q)} and ${part}` : whereSql(conn, q));
  const markers = opts.draftMarkers === true && !q.drafts;
  const columns = (table: string) =>
    sql.raw(
      [...DOCUMENT_COLUMNS, 'seq', ...(q.drafts ? ['draft'] : []), ...(markers ? MARKER_COLUMNS : [])]
        .map((c) => `${table}.${c}`)
        .join(', '),
    );
  const source = sourceSql(conn, q, markers);
  // A page of no row (`limit=0`) past the start ends at the row before it: read that one too.
  const lead = q.limit === 0 && q.offset > 0 ? 1 : 0;
  const [read, offset] = [q.limit + 1 + lead, q.offset - lead];
  // A fast read's limit and offset are written into its text (both are small: offset below
  // DEFERRED_JOIN_FROM, limit at most 101): on PostgreSQL it is a named statement (read-rows.ts),
  // and a generic plan guesses a parameter's LIMIT as a tenth of the table, which on a small table
  // picks a scan and a sort over the index's first rows.
  const slow = maySlow(q) || q.drafts === true;
  const n = (v: number) => (slow ? sql`${v}` : sql.lit(v));
  // Two ranges after the anchor (a null group and the values): each read up to the page's end on
  // its own, then put in order (the wrapping selects let SQLite order and limit each branch).
  const branch = (part: RawBuilder<boolean>) => sql`select * from (
    select ${columns('documents')} from ${source}
    where ${whereWith(part)} order by ${orderSql(conn, q, 'documents')} limit ${n(read + offset)}) branch`;
  const where = whereWith(parts.length === 1 ? parts[0] : undefined);
  const query =
    parts.length > 1
      ? sql<PageRow>`
          select ${columns('page')} from (${sql.join(parts.map(branch), sql` union all `)}) page
          order by ${orderSql(conn, q, 'page')} limit ${n(read)} offset ${n(offset)}`
      : offset < DEFERRED_JOIN_FROM
        ? sql<PageRow>`
          select ${columns('documents')} from ${source}
          where ${where} order by ${orderSql(conn, q, 'documents')} limit ${n(read)} offset ${n(offset)}`
        : sql<PageRow>`
          select ${columns('d')}
          from (select documents.seq from ${sourceSql(conn, q)} where ${where} order by ${orderSql(conn, q, 'documents')} limit ${read} offset ${offset}) page
          join ${sourceSql(conn, q, markers, 'd')} on d.seq = page.seq
          order by ${orderSql(conn, q, 'd')}`;
  const all = await readRows(conn, query, slow);
  const following = all.slice(lead);
  const served = following.slice(0, q.limit);
  const rows = served.map((r) => toStoredDocument(conn, r));
  const draftIds = q.drafts ? new Set(served.filter((r) => Number(r.draft) === 1 || r.draft === true).map((r) => r.id)) : undefined;
  const draftMarkers = markers
    ? new Map(
        served
          .filter((r) => r.draft_rev !== null && r.draft_rev !== undefined)
          .map((r) => [r.id, { rev: Number(r.draft_rev), updatedAt: String(r.draft_updated_at), updatedBy: r.draft_updated_by ?? null }]),
      )
    : undefined;
  const more = following.length > q.limit;
  const last = lead ? all[0] : following[Math.min(q.limit, following.length) - 1];
  if (!last) return { rows, draftIds, draftMarkers, more, end: after };
  return {
    rows,
    draftIds,
    draftMarkers,
    more,
    end: { value: sortValue(q.order.field, toStoredDocument(conn, last)), seq: Number(last.seq) },
  };
}

/** The sort key of the row at `position` (0-based), or undefined past the end or on an absent value. */
export async function findPageAnchor(conn: Conn, q: ListQuery, position: number): Promise<PageAnchor | undefined> {
  const query = sql<{ v: JsonScalar | null; seq: number | string }>`
    select ${operandSql(conn, q.order.field, 'documents')} as v, documents.seq as seq from ${sourceSql(conn, q)}
    where ${whereSql(conn, q)} order by ${orderSql(conn, q, 'documents')} limit 1 offset ${position}`;
  // Skips `position` index entries (a thousand or more): never on the event loop's thread.
  const [row] = await readRows(conn, query, true);
  return row && row.v !== null && row.v !== undefined ? { value: row.v, seq: Number(row.seq) } : undefined;
}

/**
 * How many rows match, counting no further than `limit + 1`: the answer is exact when it is at
 * most `limit`, and only says "more than `limit`" otherwise. The matching rows are read through
 * whatever index serves the filter, so the cost is bounded by `limit`, not by the table.
 */
export async function countDocumentsUpTo(conn: Conn, q: ListQuery, limit: number): Promise<number> {
  // In the list's own order: the planner then walks the index the page walks, a range it stops
  // after `limit + 1` rows, rather than a scan of the table that happens to stop early.
  const query = sql<{ n: number | string }>`
    select count(*) as n from (
      select 1 from ${sourceSql(conn, q)} where ${whereSql(conn, q)} order by ${orderSql(conn, q, 'documents')} limit ${limit + 1}
    ) matching`;
  const [row] = await readRows(conn, query, true);
  return Number(row?.n ?? 0);
}
