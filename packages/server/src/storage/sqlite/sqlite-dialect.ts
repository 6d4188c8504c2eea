import { sql } from 'kysely';
import { assertSafePath, type Dialect, type JsonScalar } from '../dialect.js';
import { sqliteRestore } from '../backup/sqlite-restore.js';
import { createSqliteDocumentCounts } from '../documents/sqlite-document-counts.js';
import { NATURAL_KEY_FUNCTION } from '../natural-sort-key.js';

function jsonPathLiteral(path: readonly string[]): string {
  assertSafePath(path);
  // A locale code (`de-CH`) is a key SQLite's path syntax needs quoted; a field name never does.
  return `'$.${path.map((p) => (p.includes('-') ? `"${p}"` : p)).join('.')}'`;
}

function column(table?: string) {
  return table ? `${table}.data` : 'data';
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  jsonColumnType: 'text',
  seqColumn: { type: 'integer', define: (c) => c.primaryKey() },
  indexesHoldSeq: true,
  migrationsLocked: false,
  dataModifyingCtes: false,
  keepsTransactionAfterFailedStatement: true,
  supportsForUpdate: false,
  altersPrimaryKey: false,
  listenNotify: false,
  json: (path, table) => sql.raw(`json_extract(${column(table)}, ${jsonPathLiteral(path)})`),
  jsonText: (path, table) => sql.raw(`json_extract(${column(table)}, ${jsonPathLiteral(path)})`),
  // json_extract yields 1/0 for JSON booleans.
  value: (v: JsonScalar) => sql`${typeof v === 'boolean' ? (v ? 1 : 0) : v}`,
  arrayContains: (path, v, element) => {
    const item = element ? sql.raw(`json_extract(value, ${jsonPathLiteral(element)})`) : sql.raw('value');
    return sql<boolean>`exists (select 1 from json_each(data, ${sql.raw(jsonPathLiteral(path))}) where ${item} = ${typeof v === 'boolean' ? (v ? 1 : 0) : v})`;
  },
  like: (expr, pattern) => sql<boolean>`${expr} like ${pattern} escape '\\'`,
  // Registered on each connection (sqlite-functions.ts); SQLite's own text order is by bytes.
  naturalKey: (text) => sql`${sql.raw(NATURAL_KEY_FUNCTION)}(${text})`,
  nullsOrder: () => '',
  indexExpression: (path) => `json_extract(data, ${jsonPathLiteral(path)})`,
  indexNames: async (db, table) => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db);
    return rows.map((r) => r.name);
  },
  inList: (column, list) => sql<boolean>`${sql.ref(column)} in (select value from json_each(${list}))`,
  listParam: (values) => JSON.stringify(values),
  encodeData: (data) => JSON.stringify(data),
  decodeData: (raw) => JSON.parse(raw as string) as Record<string, unknown>,
  // One writer at a time is SQLite's own rule; the transaction itself is the lock.
  lockSchema: async () => undefined,
  lockKey: async () => undefined,
  searchColumnNames: [],
  searchColumns: () => ({}),
  writeSearchText: async (db, seq, text, replace) => {
    if (replace) await sql`delete from documents_fts where rowid = ${seq}`.execute(db);
    await sql`insert into documents_fts (rowid, body) values (${seq}, ${text})`.execute(db);
  },
  deleteSearchText: async (db, seq) => {
    await sql`delete from documents_fts where rowid = ${seq}`.execute(db);
  },
  createSearchStorage: async (db) => {
    await sql`create virtual table documents_fts using fts5(body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  },
  searchMatch: (words, drafts) => {
    // Each word is quoted so FTS5 operators typed by a user are plain text, never query syntax.
    const query = words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
    const main = sql<boolean>`documents.seq in (select rowid from documents_fts where documents_fts match ${query})`;
    if (!drafts) return main;
    return sql<boolean>`(case when documents.draft = 1
      then documents.seq in (select rowid from document_drafts_fts where document_drafts_fts match ${query}) else ${main} end)`;
  },
  createDraftSearchStorage: async (db) => {
    await sql`create virtual table document_drafts_fts using fts5(body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  },
  writeDraftSearchText: async (db, seq, text, replace) => {
    if (replace) await sql`delete from document_drafts_fts where rowid = ${seq}`.execute(db);
    await sql`insert into document_drafts_fts (rowid, body) values (${seq}, ${text})`.execute(db);
  },
  deleteDraftSearchText: async (db, seq) => {
    await sql`delete from document_drafts_fts where rowid = ${seq}`.execute(db);
  },
  // `documents_fts` uses `unicode61 remove_diacritics 2` since migration 001.
  migrateSearchFolding: async () => undefined,
  createDocumentCounts: createSqliteDocumentCounts,
  restore: sqliteRestore,
  isUniqueViolation: (err) => {
    const code = (err as { code?: string }).code ?? '';
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },
};
