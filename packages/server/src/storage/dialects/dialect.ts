import type { Kysely, RawBuilder } from 'kysely';
import type { Tables } from '../tables.js';

export type DialectName = 'sqlite' | 'postgres';

/** A JSON value a filter compares with; booleans and numbers stay typed. */
export type JsonScalar = string | number | boolean;

/**
 * Everything that differs between SQLite and PostgreSQL, as capabilities. Code outside storage/
 * never asks which dialect it runs on; stores call these builders instead.
 */
export interface Dialect {
  readonly name: DialectName;
  /** `SELECT … FOR UPDATE` exists (PostgreSQL); SQLite serialises writers on its one connection. */
  readonly supportsForUpdate: boolean;
  /** Expression for the JSON value at `path` inside the `data` column, comparable with `value()`. */
  json(path: readonly string[], table?: string): RawBuilder<unknown>;
  /** The same value as text (for LIKE). */
  jsonText(path: readonly string[], table?: string): RawBuilder<string>;
  /** A bound parameter comparable with `json()`. */
  value(v: JsonScalar): RawBuilder<unknown>;
  /** True when the JSON array at `path` holds `v`. */
  arrayContains(path: readonly string[], v: JsonScalar): RawBuilder<boolean>;
  /** Case-insensitive LIKE with `\` as the escape character. */
  like(expr: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>;
  /** ORDER BY suffix so NULLs (absent fields) sort first ascending and last descending on both dialects. */
  nullsOrder(direction: 'asc' | 'desc'): string;
  /** Index expression text for a top-level JSON path (must equal what `json()` renders). */
  indexExpression(path: readonly string[]): string;
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
  /** Stores the search text outside the row, after it is written (SQLite's FTS5 table); `replace` when the row had one. */
  writeSearchText(db: Kysely<Tables>, seq: number, text: string, replace: boolean): Promise<void>;
  /** Condition on `documents` rows: every word matches, the last one as a prefix. */
  searchMatch(words: readonly string[]): RawBuilder<boolean>;
  /**
   * Migration step: sets up accent folding for search and re-indexes the stored rows with it
   * (PostgreSQL: the `unaccent` extension and the `vellum_search` configuration; SQLite's FTS5
   * tokenizer folds accents already).
   */
  migrateSearchFolding(db: Kysely<unknown>): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9_]+$/;

/** Path segments come from validated schema names, but are checked again before they meet SQL text. */
export function assertSafePath(path: readonly string[]): void {
  if (path.length === 0 || !path.every((p) => SEGMENT.test(p))) throw new Error(`unsafe JSON path: ${path.join('.')}`);
}
