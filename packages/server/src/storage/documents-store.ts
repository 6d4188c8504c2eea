import { sql, type RawBuilder } from 'kysely';
import type { Conn } from './connection.js';
import { preparedQuery } from './prepared-query.js';
import type { JsonScalar } from './dialects/dialect.js';
import { escapeLike } from './escape-like.js';
import type { DocumentsTable } from './tables.js';

export interface StoredDocument {
  id: string;
  type: string;
  status: string;
  rev: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

export type SystemColumn = 'id' | 'status' | 'rev' | 'created_at' | 'updated_at' | 'created_by' | 'updated_by';
export type Operand = { column: SystemColumn } | { json: readonly string[]; array?: boolean };
export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';

export interface Condition {
  operand: Operand;
  op: FilterOp;
  /** A list for in/nin, a boolean for exists, otherwise one typed value. */
  value: JsonScalar | JsonScalar[];
}

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

export interface DocumentRef {
  targetId: string;
  path: string;
}

/** What a write stores beside the row: document references, media used, search text. */
export interface SideRows {
  refs: readonly DocumentRef[];
  /** `targetId` is a media id. */
  media: readonly DocumentRef[];
  searchText: string;
}

type Row = Omit<DocumentsTable, 'seq'>;

const COLUMNS = ['id', 'type', 'status', 'rev', 'created_at', 'updated_at', 'created_by', 'updated_by', 'data'] as const;

function toDocument(conn: Conn, row: Row): StoredDocument {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    rev: Number(row.rev),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    data: conn.dialect.decodeData(row.data),
  };
}

// Every read of one document and every update runs these: prepared once.
const documentById = preparedQuery((conn, param: (name: 'id') => string) =>
  conn.db.selectFrom('documents').select(COLUMNS).where('id', '=', param('id')),
);
const documentByIdForUpdate = preparedQuery((conn, param: (name: 'id') => string) => {
  const q = conn.db.selectFrom('documents').select(COLUMNS).where('id', '=', param('id'));
  return conn.dialect.supportsForUpdate ? q.forUpdate() : q;
});

export async function findDocument(conn: Conn, id: string, opts: { forUpdate?: boolean } = {}): Promise<StoredDocument | undefined> {
  const [row] = await (opts.forUpdate ? documentByIdForUpdate : documentById)(conn, { id });
  return row ? toDocument(conn, row) : undefined;
}

// Every expand level and reference check runs this: one statement text for any number of ids.
const documentsByIds = preparedQuery((conn, param: (name: 'ids') => string) =>
  conn.db
    .selectFrom('documents')
    .select(COLUMNS)
    .where(conn.dialect.inList('id', param('ids'))),
);

export async function findDocumentsByIds(conn: Conn, ids: readonly string[]): Promise<StoredDocument[]> {
  if (ids.length === 0) return [];
  const rows = await documentsByIds(conn, { ids: conn.dialect.listParam(ids) });
  return rows.map((r) => toDocument(conn, r));
}

/** Inserts a document (its first revision is the row itself) with its references and search text. */
// Run for every create: prepared once.
type InsertParam = 'id' | 'type' | 'status' | 'rev' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy' | 'data' | 'searchText';
const insertRow = preparedQuery((conn, param: (name: InsertParam) => string) =>
  conn.db
    .insertInto('documents')
    .values({
      id: param('id'),
      type: param('type'),
      status: param('status'),
      rev: param('rev') as unknown as number,
      created_at: param('createdAt'),
      updated_at: param('updatedAt'),
      created_by: param('createdBy'),
      updated_by: param('updatedBy'),
      data: param('data'),
      ...conn.dialect.searchColumns(param('searchText')),
    })
    .returning('seq'),
);

export async function insertDocument(conn: Conn, doc: StoredDocument, side: SideRows): Promise<void> {
  const [{ seq }] = await insertRow(conn, {
    id: doc.id,
    type: doc.type,
    status: doc.status,
    rev: doc.rev,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    createdBy: doc.createdBy,
    updatedBy: doc.updatedBy,
    data: conn.dialect.encodeData(doc.data),
    searchText: side.searchText,
  });
  await writeSideRows(conn, doc, Number(seq), side, false);
}

/**
 * Writes a new version when the stored one still has `expectedRev`; false when another write won
 * the race (the caller decides between retrying and 412).
 */
export async function updateDocument(conn: Conn, doc: StoredDocument, expectedRev: number, side: SideRows): Promise<boolean> {
  // The version being replaced becomes a revision; nothing is copied when another write won.
  await sql`insert into document_revisions (doc_id, rev, status, data, updated_at, updated_by)
    select id, rev, status, data, updated_at, updated_by from documents where id = ${doc.id} and rev = ${expectedRev}`.execute(conn.db);
  const row = await conn.db
    .updateTable('documents')
    .set({
      status: doc.status,
      rev: doc.rev,
      updated_at: doc.updatedAt,
      updated_by: doc.updatedBy,
      data: conn.dialect.encodeData(doc.data),
      ...conn.dialect.searchColumns(side.searchText),
    })
    .where('id', '=', doc.id)
    .where('rev', '=', expectedRev)
    .returning('seq')
    .executeTakeFirst();
  if (!row) return false;
  await writeSideRows(conn, doc, Number(row.seq), side, true);
  return true;
}

async function writeSideRows(conn: Conn, doc: StoredDocument, seq: number, side: SideRows, replace: boolean) {
  if (replace) {
    await conn.db.deleteFrom('document_refs').where('source_id', '=', doc.id).execute();
    await conn.db.deleteFrom('document_media').where('source_id', '=', doc.id).execute();
  }
  if (side.refs.length > 0) {
    await conn.db
      .insertInto('document_refs')
      .values(side.refs.map((r) => ({ source_id: doc.id, target_id: r.targetId, path: r.path })))
      .execute();
  }
  if (side.media.length > 0) {
    await conn.db
      .insertInto('document_media')
      .values(side.media.map((r) => ({ source_id: doc.id, media_id: r.targetId, path: r.path })))
      .execute();
  }
  await conn.dialect.writeSearchText(conn.db, seq, side.searchText, replace);
}

export async function deleteDocument(conn: Conn, id: string): Promise<boolean> {
  const row = await conn.db.deleteFrom('documents').where('id', '=', id).returning('seq').executeTakeFirst();
  if (!row) return false;
  if (conn.dialect.name === 'sqlite') await sql`delete from documents_fts where rowid = ${row.seq}`.execute(conn.db);
  return true;
}

/** Documents whose fields point at `targetId`. */
export async function findReferrers(
  conn: Conn,
  targetId: string,
  limit: number,
): Promise<Array<{ id: string; type: string; path: string }>> {
  return conn.db
    .selectFrom('document_refs')
    .innerJoin('documents', 'documents.id', 'document_refs.source_id')
    .select(['documents.id as id', 'documents.type as type', 'document_refs.path as path'])
    .where('document_refs.target_id', '=', targetId)
    .where('document_refs.source_id', '!=', targetId)
    .orderBy('documents.id')
    .limit(limit)
    .execute();
}

/** Until the transaction ends, other writers asking for the same slug (type, field, stem) wait: they would pick the same free suffix. */
export async function lockSlug(conn: Conn, type: string, field: string, stem: string): Promise<void> {
  await conn.dialect.lockKey(conn.db, `slug:${type}:${field}:${stem}`);
}

export async function typeHasDocuments(conn: Conn, type: string): Promise<boolean> {
  return (await conn.db.selectFrom('documents').select('id').where('type', '=', type).limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Documents of `type` whose value at `path` lies in [`base`, `base-:`): for slugs (only a–z, 0–9
 * and single dashes) that is `base` and `base-<digit>…`, since digits sort between "-" and ":".
 * One range, so the field's index serves it (an OR of two conditions would not).
 */
export async function valuesWithSuffix(
  conn: Conn,
  type: string,
  path: readonly string[],
  base: string,
  exceptId: string,
): Promise<string[]> {
  const rows = await suffixQuery(conn, type, path, base, exceptId)
    .select(sql<string>`${conn.dialect.jsonText(path)}`.as('v'))
    .execute();
  return rows.map((r) => r.v);
}

export async function countWithSuffix(conn: Conn, type: string, path: readonly string[], base: string, exceptId: string): Promise<number> {
  const row = await suffixQuery(conn, type, path, base, exceptId)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function suffixQuery(conn: Conn, type: string, path: readonly string[], base: string, exceptId: string) {
  const expr = conn.dialect.json(path);
  return conn.db
    .selectFrom('documents')
    .where('type', '=', type)
    .where('id', '!=', exceptId)
    .where(expr, '>=', conn.dialect.value(base))
    .where(expr, '<', conn.dialect.value(`${base}-:`));
}

/** True when another document of `type` holds `value` at the JSON path (slug and unique checks). */
export async function valueTaken(
  conn: Conn,
  type: string,
  path: readonly string[],
  value: JsonScalar,
  exceptId?: string,
): Promise<boolean> {
  let q = conn.db
    .selectFrom('documents')
    .select('id')
    .where('type', '=', type)
    .where(sql<boolean>`${conn.dialect.json(path)} = ${conn.dialect.value(value)}`);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

function operandSql(conn: Conn, operand: Operand, table?: string): RawBuilder<unknown> {
  if ('column' in operand) return sql.raw(table ? `${table}.${operand.column}` : operand.column);
  return conn.dialect.json(operand.json, table);
}

function conditionSql(conn: Conn, c: Condition): RawBuilder<boolean> {
  const { dialect } = conn;
  const isColumn = 'column' in c.operand;
  const left = operandSql(conn, c.operand);
  const bind = (v: JsonScalar) => (isColumn ? sql`${v}` : dialect.value(v));
  const isArray = !isColumn && (c.operand as { array?: boolean }).array === true;
  const path = isColumn ? [] : (c.operand as { json: readonly string[] }).json;
  const values = Array.isArray(c.value) ? c.value : [c.value];
  switch (c.op) {
    case 'exists':
      return c.value ? sql<boolean>`${left} is not null` : sql<boolean>`${left} is null`;
    case 'eq':
    case 'contains':
      if (isArray) return dialect.arrayContains(path, c.value as JsonScalar);
      if (c.op === 'contains') return dialect.like(isColumn ? left : dialect.jsonText(path), `%${escapeLike(String(c.value))}%`);
      return sql<boolean>`${left} = ${bind(c.value as JsonScalar)}`;
    case 'ne':
      if (isArray) return sql<boolean>`(${left} is null or not (${dialect.arrayContains(path, c.value as JsonScalar)}))`;
      // An absent field is "not equal" too; SQL's three-valued logic would drop it otherwise.
      return sql<boolean>`(${left} is null or ${left} <> ${bind(c.value as JsonScalar)})`;
    case 'in':
      if (isArray)
        return sql<boolean>`(${sql.join(
          values.map((v) => dialect.arrayContains(path, v)),
          sql` or `,
        )})`;
      return sql<boolean>`${left} in (${sql.join(values.map(bind))})`;
    case 'nin':
      if (isArray)
        return sql<boolean>`(${left} is null or not (${sql.join(
          values.map((v) => dialect.arrayContains(path, v)),
          sql` or `,
        )}))`;
      return sql<boolean>`(${left} is null or ${left} not in (${sql.join(values.map(bind))}))`;
    case 'startsWith':
      return dialect.like(isColumn ? left : dialect.jsonText(path), `${escapeLike(String(c.value))}%`);
    case 'gt':
      return sql<boolean>`${left} > ${bind(c.value as JsonScalar)}`;
    case 'gte':
      return sql<boolean>`${left} >= ${bind(c.value as JsonScalar)}`;
    case 'lt':
      return sql<boolean>`${left} < ${bind(c.value as JsonScalar)}`;
    case 'lte':
      return sql<boolean>`${left} <= ${bind(c.value as JsonScalar)}`;
  }
}

function whereSql(conn: Conn, q: ListQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`documents.type = ${q.type}`];
  if (q.statuses) parts.push(sql`documents.status in (${sql.join(q.statuses.map((s) => sql`${s}`))})`);
  for (const c of q.conditions) parts.push(conditionSql(conn, c));
  if (q.searchWords) parts.push(q.searchWords.length > 0 ? conn.dialect.searchMatch(q.searchWords) : sql`1 = 0`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** The sort key of one row: a page can start right after it instead of skipping rows. */
export interface PageAnchor {
  value: JsonScalar;
  seq: number;
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
 * One page of documents. For deep offsets the page is chosen on the indexes alone (a "deferred
 * join": only `seq` is read while skipping rows), then the full rows of that page are fetched.
 * With an anchor the page starts right after that row, so only the rows past it are skipped.
 */
export async function listDocuments(conn: Conn, q: ListQuery, after?: PageAnchor): Promise<StoredDocument[]> {
  const where = after ? sql`${whereSql(conn, q)} and ${afterAnchorSql(conn, q, after)}` : whereSql(conn, q);
  const columns = (table: string) => sql.raw(COLUMNS.map((c) => `${table}.${c}`).join(', '));
  const result =
    q.offset < DEFERRED_JOIN_FROM
      ? await sql<Row>`
          select ${columns('documents')} from documents
          where ${where} order by ${orderSql(conn, q, 'documents')} limit ${q.limit} offset ${q.offset}`.execute(conn.db)
      : await sql<Row>`
          select ${columns('d')}
          from (select documents.seq from documents where ${where} order by ${orderSql(conn, q, 'documents')} limit ${q.limit} offset ${q.offset}) page
          join documents d on d.seq = page.seq
          order by ${orderSql(conn, q, 'd')}`.execute(conn.db);
  return result.rows.map((r) => toDocument(conn, r));
}

/** The sort key of the row at `position` (0-based), or undefined past the end or on an absent value. */
export async function findPageAnchor(conn: Conn, q: ListQuery, position: number): Promise<PageAnchor | undefined> {
  const result = await sql<{ v: JsonScalar | null; seq: number | string }>`
    select ${operandSql(conn, q.order.operand, 'documents')} as v, documents.seq as seq from documents
    where ${whereSql(conn, q)} order by ${orderSql(conn, q, 'documents')} limit 1 offset ${position}`.execute(conn.db);
  const row = result.rows[0];
  return row && row.v !== null && row.v !== undefined ? { value: row.v, seq: Number(row.seq) } : undefined;
}

export async function countDocuments(conn: Conn, q: ListQuery): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from documents where ${whereSql(conn, q)}`.execute(conn.db);
  return Number(result.rows[0]?.n ?? 0);
}

export interface StoredRevision {
  rev: number;
  status: string;
  updatedAt: string;
  updatedBy: string | null;
  data: Record<string, unknown>;
}

/** Every version of a document, newest first: the current one is the document row, earlier ones are in document_revisions. */
function versions(conn: Conn, docId: string) {
  return conn.db
    .selectFrom('documents')
    .select(['rev', 'status', 'updated_at', 'updated_by', 'data'])
    .where('id', '=', docId)
    .unionAll(
      conn.db.selectFrom('document_revisions').select(['rev', 'status', 'updated_at', 'updated_by', 'data']).where('doc_id', '=', docId),
    );
}

function toRevision(
  conn: Conn,
  r: { rev: number | string; status: string; updated_at: string; updated_by: string | null; data: unknown },
): StoredRevision {
  return { rev: Number(r.rev), status: r.status, updatedAt: r.updated_at, updatedBy: r.updated_by, data: conn.dialect.decodeData(r.data) };
}

export async function listRevisions(
  conn: Conn,
  docId: string,
  limit: number,
  offset: number,
): Promise<{ rows: StoredRevision[]; total: number }> {
  const rows = await versions(conn, docId).orderBy('rev', 'desc').limit(limit).offset(offset).execute();
  const { n } = await conn.db
    .selectFrom('document_revisions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('doc_id', '=', docId)
    .executeTakeFirstOrThrow();
  // Called for an existing document, so its current version counts too.
  return { rows: rows.map((r) => toRevision(conn, r)), total: Number(n) + 1 };
}

export async function findRevision(conn: Conn, docId: string, rev: number): Promise<StoredRevision | undefined> {
  const r = await conn.db.selectFrom(versions(conn, docId).as('v')).selectAll().where('rev', '=', rev).executeTakeFirst();
  return r ? toRevision(conn, r) : undefined;
}
