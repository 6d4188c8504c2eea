import { sql, type RawBuilder } from 'kysely';
import type { Conn } from './connection.js';
import type { JsonScalar } from './dialects/dialect.js';
import { conditionSql, operandSql, type Condition, type Operand } from './document-filter-sql.js';
import { DOCUMENT_COLUMNS, toStoredDocument, type DocumentRow, type StoredDocument } from './document-rows.js';
import { readRows } from './read-rows.js';

export interface ListQuery {
  type: string;
  /** Restricts to these statuses (anonymous readers see `published` only). */
  statuses?: readonly string[];
  conditions: readonly Condition[];
  searchWords?: readonly string[];
  order: { operand: Operand; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
}

/** The sort key of one row: a page can start right after it instead of skipping rows. */
export interface PageAnchor {
  value: JsonScalar;
  seq: number;
}

function whereSql(conn: Conn, q: ListQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`documents.type = ${q.type}`];
  if (q.statuses) parts.push(sql`documents.status in (${sql.join(q.statuses.map((s) => sql`${s}`))})`);
  for (const c of q.conditions) parts.push(conditionSql(conn, c));
  if (q.searchWords) parts.push(q.searchWords.length > 0 ? conn.dialect.searchMatch(q.searchWords) : sql`1 = 0`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

function orderSql(conn: Conn, q: ListQuery, table: string) {
  const dir = q.order.direction === 'asc' ? 'asc' : 'desc';
  const nulls = 'json' in q.order.operand ? conn.dialect.nullsOrder(dir) : '';
  return sql`${operandSql(conn, q.order.operand, table)} ${sql.raw(dir + nulls)}, ${sql.raw(`${table}.seq ${dir}`)}`;
}

/** Rows that sort after the anchor, as a row-value comparison the index can range-scan. */
function afterAnchorSql(conn: Conn, q: ListQuery, a: PageAnchor): RawBuilder<boolean> {
  const expr = operandSql(conn, q.order.operand, 'documents');
  const op = sql.raw(q.order.direction === 'asc' ? '>' : '<');
  return sql<boolean>`(${expr}, documents.seq) ${op} (${a.value}, ${a.seq})`;
}

/** Anchors need a sort key that is never absent: the non-null system columns. */
export function anchorable(q: ListQuery): boolean {
  return 'column' in q.order.operand && ['id', 'status', 'rev', 'created_at', 'updated_at'].includes(q.order.operand.column);
}

/** Below this offset a page is read directly; above it, the page is chosen on the index first. */
const DEFERRED_JOIN_FROM = 200;

/**
 * Whether a list's SQL can take long whatever the indexes hold: a search, a JSON order, any filter
 * but status (the system indexes serve type, status and the time orders), or skipping many rows.
 * Such reads go where they cannot hold the event loop (`readRows`).
 */
function maySlow(q: ListQuery): boolean {
  const statusOnly = q.conditions.every((c) => 'column' in c.operand && c.operand.column === 'status');
  return q.searchWords !== undefined || 'json' in q.order.operand || !statusOnly || q.offset >= DEFERRED_JOIN_FROM;
}

/**
 * One page of documents. For deep offsets the page is chosen on the indexes alone (a "deferred
 * join": only `seq` is read while skipping rows), then the full rows of that page are fetched.
 * With an anchor the page starts right after that row, so only the rows past it are skipped.
 */
export async function listDocuments(conn: Conn, q: ListQuery, after?: PageAnchor): Promise<StoredDocument[]> {
  const where = after ? sql`${whereSql(conn, q)} and ${afterAnchorSql(conn, q, after)}` : whereSql(conn, q);
  const columns = (table: string) => sql.raw(DOCUMENT_COLUMNS.map((c) => `${table}.${c}`).join(', '));
  const query =
    q.offset < DEFERRED_JOIN_FROM
      ? sql<DocumentRow>`
          select ${columns('documents')} from documents
          where ${where} order by ${orderSql(conn, q, 'documents')} limit ${q.limit} offset ${q.offset}`
      : sql<DocumentRow>`
          select ${columns('d')}
          from (select documents.seq from documents where ${where} order by ${orderSql(conn, q, 'documents')} limit ${q.limit} offset ${q.offset}) page
          join documents d on d.seq = page.seq
          order by ${orderSql(conn, q, 'd')}`;
  const rows = await readRows(conn, query, maySlow(q));
  return rows.map((r) => toStoredDocument(conn, r));
}

/** The sort key of the row at `position` (0-based), or undefined past the end or on an absent value. */
export async function findPageAnchor(conn: Conn, q: ListQuery, position: number): Promise<PageAnchor | undefined> {
  const query = sql<{ v: JsonScalar | null; seq: number | string }>`
    select ${operandSql(conn, q.order.operand, 'documents')} as v, documents.seq as seq from documents
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
  const query = sql<{ n: number | string }>`
    select count(*) as n from (select 1 from documents where ${whereSql(conn, q)} limit ${limit + 1}) matching`;
  const [row] = await readRows(conn, query, true);
  return Number(row?.n ?? 0);
}
