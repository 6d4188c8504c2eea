import type { Generated } from 'kysely';

/**
 * The tables of documents, their pending drafts, revisions, references, media uses and counts, as
 * stored (re-exported by tables.ts). Timestamps are ISO 8601 UTC strings with milliseconds.
 */
export interface DocumentsTable {
  seq: Generated<number>;
  id: string;
  type: string;
  status: string;
  rev: number;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
  /** JSON text on SQLite, jsonb on PostgreSQL (the store hides the difference). */
  data: unknown;
}

export interface DocumentRevisionsTable {
  doc_id: string;
  /** 'main' or 'draft' (migration 016): a draft's saves are numbered by the draft's own `rev`. */
  kind: Generated<string>;
  rev: number;
  status: string;
  data: unknown;
  updated_at: string;
  updated_by: string | null;
}

/** How many documents of a type are in a status: `n` summed over the shards (migration 014). */
export interface DocumentCountsTable {
  type: string;
  status: string;
  shard: number;
  n: number | string;
}

export interface DocumentRefsTable {
  source_id: string;
  target_id: string;
  path: string;
}

/** A published document's pending draft (migration 016): the main row's identity, its own `rev`. */
export interface DocumentDraftsTable {
  id: string;
  seq: number | string;
  type: string;
  rev: number;
  base_rev: number;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
  data: unknown;
}

export interface DocumentDraftMediaTable {
  source_id: string;
  path: string;
  media_id: string;
}

export interface DocumentMediaTable {
  source_id: string;
  path: string;
  media_id: string;
}
