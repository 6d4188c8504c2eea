import type { ColumnDefinitionBuilder, Kysely, RawBuilder } from 'kysely';
import type { Tables } from './tables.js';
import type { RestoreStatements } from './backup/restore-statements.js';

export type DialectName = 'sqlite' | 'postgres';

/** A JSON value a filter compares with; booleans and numbers stay typed. */
export type JsonScalar = string | number | boolean;

/**
 * Everything that differs between SQLite and PostgreSQL, as capabilities. Nothing asks which
 * dialect it runs on (`name` only names it); stores and migrations call these instead, and code
 * outside storage/ never sees the dialect at all (docs/architecture.md, "The floors").
 */
export interface Dialect {
  readonly name: DialectName;
  /** Column type for JSON values: `jsonb`, or text holding JSON. */
  readonly jsonColumnType: 'jsonb' | 'text';
  /** The auto-numbered key `seq` of `documents`: a `bigint` identity, or SQLite's `integer` rowid alias. */
  readonly seqColumn: { type: 'bigint' | 'integer'; define: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder };
  /** Every index also holds the row's `seq` (SQLite's rowid), so `seq` need not be an index column for ordering. */
  readonly indexesHoldSeq: boolean;
  /** Kysely's migrator serialises nodes migrating at once (an advisory lock); without it a failed migration is tried again. */
  readonly migrationsLocked: boolean;
  /** INSERT/UPDATE/DELETE inside WITH: a checked write is one statement, atomic without BEGIN/COMMIT. */
  readonly dataModifyingCtes: boolean;
  /** `SELECT … FOR UPDATE` exists (PostgreSQL); SQLite serialises writers on its one connection. */
  readonly supportsForUpdate: boolean;
  /** `ALTER TABLE … ADD CONSTRAINT … PRIMARY KEY` on an existing table (SQLite: the table is copied into its new shape). */
  readonly altersPrimaryKey: boolean;
  /** LISTEN/NOTIFY carries messages between the nodes sharing the database (PostgreSQL): the realtime fan-out. */
  readonly listenNotify: boolean;
  /** Expression for the JSON value at `path` inside the `data` column, comparable with `value()`. */
  json(path: readonly string[], table?: string): RawBuilder<unknown>;
  /** The same value as text (for LIKE). */
  jsonText(path: readonly string[], table?: string): RawBuilder<string>;
  /** A bound parameter comparable with `json()`. */
  value(v: JsonScalar): RawBuilder<unknown>;
  /** True when the JSON array at `path` holds `v`, or with `element` an object whose value at `element` is `v`. */
  arrayContains(path: readonly string[], v: JsonScalar, element?: readonly string[]): RawBuilder<boolean>;
  /** Case-insensitive LIKE with `\` as the escape character. */
  like(expr: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>;
  /**
   * A text expression's natural sort key (natural-sort-key.ts), compared by bytes on both engines:
   * SQLite calls the function registered on each connection (its text compares by bytes);
   * PostgreSQL computes the same key in the query, `collate "C"`.
   */
  naturalKey(text: RawBuilder<unknown>): RawBuilder<unknown>;
  /** ORDER BY suffix so NULLs (absent fields) sort first ascending and last descending on both dialects. */
  nullsOrder(direction: 'asc' | 'desc'): string;
  /** Index expression text for a top-level JSON path (must equal what `json()` renders). */
  indexExpression(path: readonly string[]): string;
  /** The names of the indexes on `table`. */
  indexNames(db: Kysely<Tables>, table: string): Promise<string[]>;
  /**
   * `column` is one of the values of a list bound as one parameter (`listParam`), so the SQL text
   * is the same whatever the list's length: one prepared statement serves every list.
   */
  inList(column: string, list: unknown): RawBuilder<boolean>;
  /** A list of strings as the parameter `inList` expects (an array on PostgreSQL, JSON on SQLite). */
  listParam(values: readonly string[]): unknown;
  encodeData(data: Record<string, unknown>): unknown;
  decodeData(raw: unknown): Record<string, unknown>;
  isUniqueViolation(err: unknown): boolean;
  /**
   * A statement refused by a constraint is undone alone and the transaction goes on (SQLite);
   * on PostgreSQL the whole transaction is aborted, so writers ask before they write instead.
   */
  readonly keepsTransactionAfterFailedStatement: boolean;
  /** Inside a transaction: waits until no other node is changing the schema (indexes), then holds that right until commit. */
  lockSchema(db: Kysely<Tables>): Promise<void>;
  /** Inside a transaction: waits until no other transaction holds `key`, then holds it until commit (a no-op where writers are serial anyway). */
  lockKey(db: Kysely<Tables>, key: string): Promise<void>;
  /** Extra column values of a document row for its search text (PostgreSQL's tsvector column). */
  searchColumns(text: string): Record<string, RawBuilder<unknown>>;
  /** The columns of `documents` that `searchColumns` writes (none where the index is a table of its own). */
  readonly searchColumnNames: readonly string[];
  /** Stores the search text outside the row, after it is written (SQLite's FTS5 table); `replace` when the row had one. */
  writeSearchText(db: Kysely<Tables>, seq: number, text: string, replace: boolean): Promise<void>;
  /** Removes the search text of a deleted row where it is kept outside the row. */
  deleteSearchText(db: Kysely<Tables>, seq: number): Promise<void>;
  /** Creates what the search builders use: the `search` column and its index, or the FTS5 table (migration 001). */
  createSearchStorage(db: Kysely<unknown>): Promise<void>;
  /**
   * Condition on `documents` rows: every word matches, the last one as a prefix. `drafts`: the
   * relation is a list's under `perspective=drafts`, whose rows served from a pending draft
   * (`draft` = 1) match the draft's own text.
   */
  searchMatch(words: readonly string[], drafts?: boolean): RawBuilder<boolean>;
  /** The pending drafts' search storage (migration 016): a `search` column, or an FTS5 table of their own. */
  createDraftSearchStorage(db: Kysely<unknown>): Promise<void>;
  /** Stores a pending draft's search text (its row is `seq`, its document's); `replace` when it had one. */
  writeDraftSearchText(db: Kysely<Tables>, seq: number, text: string, replace: boolean): Promise<void>;
  /** Removes a dropped draft's search text where it is kept outside its row. */
  deleteDraftSearchText(db: Kysely<Tables>, seq: number): Promise<void>;
  /**
   * Migration step: sets up accent folding for search and re-indexes the stored rows with it
   * (PostgreSQL: the `unaccent` extension and the `vellum_search` configuration; SQLite's FTS5
   * tokenizer folds accents already).
   */
  migrateSearchFolding(db: Kysely<unknown>): Promise<void>;
  /** Migration step: the triggers that keep `document_counts` exact in every write's transaction (migration 014). */
  createDocumentCounts(db: Kysely<unknown>): Promise<void>;
  /** How `vellum restore` writes rows, search text and sequences on this engine. */
  readonly restore: RestoreStatements;
}

// Field names, and locale codes (language tags: letters and digits joined by hyphens), docs/localization.md.
const SEGMENT = /^[A-Za-z0-9_]+(?:-[A-Za-z0-9]+)*$/;

/** Path segments come from validated schema names, but are checked again before they meet SQL text. */
export function assertSafePath(path: readonly string[]): void {
  if (path.length === 0 || !path.every((p) => SEGMENT.test(p))) throw new Error(`unsafe JSON path: ${path.join('.')}`);
}
