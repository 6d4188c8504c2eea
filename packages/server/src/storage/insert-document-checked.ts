import { CompiledQuery } from 'kysely';
import { inTransaction, type Conn } from './connection.js';
import type { Database } from './database.js';
import type { SideRows, StoredDocument } from './documents-store.js';
import { nameStatement } from './named-statements.js';

/** What must hold for the insert to happen; checked by the insert statement itself. */
export interface InsertGuards {
  /** Each id must name an existing document of one of `types`. */
  references: ReadonlyArray<{ id: string; types: readonly string[] }>;
  /** Each id must name an existing media item. */
  media: readonly string[];
}

/**
 * Inserts a new document with its references, media uses and search text, unless a guard fails
 * or a unique index (id, slug, unique field) already holds one of its values: then nothing is
 * written and the answer is false, and the caller finds out which with its ordinary checks.
 *
 * This is the create fast path. On PostgreSQL it is one statement (atomic on its own, so no
 * BEGIN/COMMIT): one round trip instead of six, which is most of what a create costs there. On
 * SQLite it is a few prepared statements in one transaction of the write batcher.
 */
export async function insertDocumentChecked(database: Conn | Database, doc: StoredDocument, side: SideRows, guards: InsertGuards): Promise<boolean> {
  const row = [doc.id, doc.type, doc.status, doc.rev, doc.createdAt, doc.updatedAt, doc.createdBy, doc.updatedBy, database.dialect.encodeData(doc.data)];
  const refGuards = JSON.stringify(guards.references);
  const mediaGuards = JSON.stringify(guards.media);
  if (database.dialect.name === 'postgres') {
    const params = [...row, side.searchText, refGuards, mediaGuards, JSON.stringify(side.refs), JSON.stringify(side.media)];
    const result = await database.db.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, params));
    return result.rows.length === 1;
  }
  return inTransaction(database, async (conn) => {
    const inserted = await conn.db.executeQuery<{ seq: number }>(CompiledQuery.raw(SQLITE_INSERT, [...row, refGuards, mediaGuards]));
    if (inserted.rows.length === 0) return false;
    if (side.refs.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_REFS, [doc.id, JSON.stringify(side.refs)]));
    if (side.media.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_MEDIA, [doc.id, JSON.stringify(side.media)]));
    await conn.db.executeQuery(CompiledQuery.raw(SQLITE_SEARCH, [inserted.rows[0].seq, side.searchText]));
    return true;
  });
}

// `on conflict do nothing` without a target covers every unique index: the id, slugs and unique
// fields. A failed guard leaves `ins` empty, and the side rows join on `ins`, so nothing is written.
// The foreign keys of the side rows are checked at the end of the statement, when `ins` is there.
const POSTGRES_INSERT = `
with guard as (
  select
    not exists (
      select 1 from jsonb_array_elements($11::jsonb) g
      where not exists (select 1 from documents d where d.id = g->>'id' and (g->'types') @> to_jsonb(d.type))
    )
    and not exists (
      select 1 from jsonb_array_elements_text($12::jsonb) g(id)
      where not exists (select 1 from media m where m.id = g.id)
    ) as ok
), ins as (
  insert into documents (id, type, status, rev, created_at, updated_at, created_by, updated_by, data, search)
  select $1, $2, $3, $4::integer, $5, $6, $7, $8, $9::jsonb, to_tsvector('simple', $10) from guard where ok
  on conflict do nothing
  returning seq, id
), refs as (
  insert into document_refs (source_id, target_id, path)
  select ins.id, r->>'targetId', r->>'path' from ins, jsonb_array_elements($13::jsonb) r
), uses as (
  insert into document_media (source_id, media_id, path)
  select ins.id, r->>'targetId', r->>'path' from ins, jsonb_array_elements($14::jsonb) r
)
select seq from ins`;

// SQLite needs a WHERE on an INSERT … SELECT before ON CONFLICT (its parser's rule); the guards are it.
const SQLITE_INSERT = `
insert into documents (id, type, status, rev, created_at, updated_at, created_by, updated_by, data)
select ?, ?, ?, ?, ?, ?, ?, ?, ?
where not exists (
    select 1 from json_each(?) g
    where not exists (select 1 from documents d where d.id = g.value ->> '$.id' and d.type in (select value from json_each(g.value, '$.types')))
  )
  and not exists (select 1 from json_each(?) g where not exists (select 1 from media m where m.id = g.value))
on conflict do nothing
returning seq`;

const SQLITE_REFS = `insert into document_refs (source_id, target_id, path) select ?, value ->> '$.targetId', value ->> '$.path' from json_each(?)`;
const SQLITE_MEDIA = `insert into document_media (source_id, media_id, path) select ?, value ->> '$.targetId', value ->> '$.path' from json_each(?)`;
const SQLITE_SEARCH = `insert into documents_fts (rowid, body) values (?, ?)`;

nameStatement(POSTGRES_INSERT);
