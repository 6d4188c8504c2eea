import { sql } from 'kysely';
import { assertSafePath, type Dialect, type JsonScalar } from './dialect.js';

function arrowPath(path: readonly string[], table?: string): string {
  assertSafePath(path);
  return `(${table ? `${table}.data` : 'data'}${path.map((p) => `->'${p}'`).join('')})`;
}

/** Any fixed number: every node uses the same one to serialise index changes. */
const SCHEMA_LOCK_KEY = 7_341_101;

export const postgresDialect: Dialect = {
  name: 'postgres',
  jsonColumnType: 'jsonb',
  seqColumn: { type: 'bigint', define: (c) => c.primaryKey().generatedAlwaysAsIdentity() },
  indexesHoldSeq: false,
  migrationsLocked: true,
  dataModifyingCtes: true,
  keepsTransactionAfterFailedStatement: false,
  supportsForUpdate: true,
  // jsonb compares numbers numerically and strings as text, so one operator serves every scalar type.
  json: (path, table) => sql.raw(arrowPath(path, table)),
  jsonText: (path, table) => {
    assertSafePath(path);
    return sql.raw(`(${table ? `${table}.data` : 'data'}#>>'{${path.join(',')}}')`);
  },
  value: (v: JsonScalar) => sql`cast(${JSON.stringify(v)} as jsonb)`,
  arrayContains: (path, v) => sql<boolean>`${sql.raw(arrowPath(path))} @> cast(${JSON.stringify([v])} as jsonb)`,
  like: (expr, pattern) => sql<boolean>`${expr} ilike ${pattern} escape '\\'`,
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
  searchColumns: (text) => ({ search: sql`to_tsvector('simple', ${text})` }),
  writeSearchText: async () => undefined,
  // The tsvector is a column of the row: it goes with it.
  deleteSearchText: async () => undefined,
  createSearchStorage: async (db) => {
    await sql`alter table documents add column search tsvector`.execute(db);
    await sql`create index documents_search on documents using gin (search)`.execute(db);
  },
  searchMatch: (words) => {
    // Words hold only letters and digits (see search-words.ts), so they are safe tsquery operands.
    const query = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
    return sql<boolean>`documents.search @@ to_tsquery('simple', ${query})`;
  },
  isUniqueViolation: (err) => (err as { code?: string }).code === '23505',
};
