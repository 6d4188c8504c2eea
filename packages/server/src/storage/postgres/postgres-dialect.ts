import { sql, type Kysely } from 'kysely';
import { assertSafePath, type Dialect, type JsonScalar } from '../dialect.js';
import { postgresRestore } from '../backup/postgres-restore.js';
import { createPostgresDocumentCounts } from '../documents/postgres-document-counts.js';
import { postgresNaturalKey } from './postgres-natural-key.js';

function arrowPath(path: readonly string[], table?: string): string {
  assertSafePath(path);
  return `(${table ? `${table}.data` : 'data'}${path.map((p) => `->'${p}'`).join('')})`;
}

/** Any fixed number: every node uses the same one to serialise index changes. */
const SCHEMA_LOCK_KEY = 7_341_101;

/** `simple` (no stemming) with accents folded by `unaccent`, made by `migrateSearchFolding`. */
export const SEARCH_CONFIG = 'vellum_search';

/**
 * Creates the `unaccent` extension (a trusted contrib extension: the database owner may create
 * it) and the `vellum_search` configuration, then re-indexes stored rows. Their text is not kept
 * apart from the vector, so each stored lexeme (already lower-cased by `simple`) is folded in
 * place with its positions: the result equals `to_tsvector('vellum_search', text)`.
 */
async function migrateSearchFolding(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create text search configuration ${sql.raw(SEARCH_CONFIG)} (copy = simple)`.execute(db);
  await sql`alter text search configuration ${sql.raw(SEARCH_CONFIG)}
    alter mapping for word, numword, hword, numhword, hword_part, hword_numpart with unaccent, simple`.execute(db);
  // tsvector literal syntax: a lexeme in single quotes with quotes and backslashes (chr(92)) doubled, then `:positions`.
  await sql`update documents set search = (
    select coalesce(string_agg(
      '''' || replace(replace(folded, chr(92), chr(92) || chr(92)), '''', '''''') || '''' || coalesce(':' || array_to_string(positions, ','), ''),
      ' '), '')::tsvector
    from unnest(documents.search) as u(lexeme, positions, weights), lower(unaccent(lexeme)) as folded
    where folded <> '')
    where search is not null`.execute(db);
}

export const postgresDialect: Dialect = {
  name: 'postgres',
  jsonColumnType: 'jsonb',
  seqColumn: { type: 'bigint', define: (c) => c.primaryKey().generatedAlwaysAsIdentity() },
  indexesHoldSeq: false,
  migrationsLocked: true,
  dataModifyingCtes: true,
  keepsTransactionAfterFailedStatement: false,
  supportsForUpdate: true,
  altersPrimaryKey: true,
  listenNotify: true,
  // jsonb compares numbers numerically and strings as text, so one operator serves every scalar type.
  json: (path, table) => sql.raw(arrowPath(path, table)),
  jsonText: (path, table) => {
    assertSafePath(path);
    return sql.raw(`(${table ? `${table}.data` : 'data'}#>>'{${path.join(',')}}')`);
  },
  value: (v: JsonScalar) => sql`cast(${JSON.stringify(v)} as jsonb)`,
  arrayContains: (path, v, element = []) => {
    if (element.length > 0) assertSafePath(element);
    // `[{"_type": "quote"}]` is contained in a list holding any object with that value.
    const item = element.reduceRight<unknown>((inner, key) => ({ [key]: inner }), v);
    return sql<boolean>`${sql.raw(arrowPath(path))} @> cast(${JSON.stringify([item])} as jsonb)`;
  },
  like: (expr, pattern) => sql<boolean>`${expr} ilike ${pattern} escape '\\'`,
  naturalKey: postgresNaturalKey,
  nullsOrder: (direction) => (direction === 'asc' ? ' nulls first' : ' nulls last'),
  indexExpression: (path) => arrowPath(path),
  indexNames: async (db, table) => {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename = ${table} and schemaname = current_schema()`.execute(db);
    return rows.map((r) => r.name);
  },
  inList: (column, list) => sql<boolean>`${sql.ref(column)} = any(cast(${list} as text[]))`,
  listParam: (values) => [...values],
  encodeData: (data) => JSON.stringify(data),
  decodeData: (raw) => raw as Record<string, unknown>,
  lockSchema: async (db) => {
    await sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`.execute(db);
  },
  // A 64-bit hash of the key: a collision only makes two unrelated writers take turns.
  lockKey: async (db, key) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, ${SCHEMA_LOCK_KEY}))`.execute(db);
  },
  searchColumnNames: ['search'],
  searchColumns: (text) => ({ search: sql`to_tsvector(${sql.lit(SEARCH_CONFIG)}, ${text})` }),
  writeSearchText: async () => undefined,
  // The tsvector is a column of the row: it goes with it.
  deleteSearchText: async () => undefined,
  createSearchStorage: async (db) => {
    await sql`alter table documents add column search tsvector`.execute(db);
    await sql`create index documents_search on documents using gin (search)`.execute(db);
  },
  // Under `drafts` the list's relation carries the draft's `search` where it has one (list-documents-query.ts).
  searchMatch: (words) => {
    // Words hold only letters and digits (see search-words.ts), so they are safe tsquery operands.
    const query = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
    return sql<boolean>`documents.search @@ to_tsquery(${sql.lit(SEARCH_CONFIG)}, ${query})`;
  },
  createDraftSearchStorage: async (db) => {
    await sql`alter table document_drafts add column search tsvector`.execute(db);
  },
  writeDraftSearchText: async (db, seq, text) => {
    await sql`update document_drafts set search = to_tsvector(${sql.lit(SEARCH_CONFIG)}, ${text}) where seq = ${seq}`.execute(db);
  },
  // The tsvector is a column of the draft's row: it goes with it.
  deleteDraftSearchText: async () => undefined,
  migrateSearchFolding,
  createDocumentCounts: createPostgresDocumentCounts,
  restore: postgresRestore(SEARCH_CONFIG),
  isUniqueViolation: (err) => (err as { code?: string }).code === '23505',
};
