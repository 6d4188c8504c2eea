import { CompiledQuery } from 'kysely';
import { inTransaction, type Conn } from './connection.js';
import type { Database } from './database.js';
import type { StoredDocument } from './document-rows.js';
import { updateDocument, type SideRows } from './document-writes.js';
import { nameStatement } from './named-statements.js';
import { SEARCH_CONFIG } from './dialects/postgres.js';
import { insertOutbox, postgresOutboxCte, type OutboxRow } from './webhook-outbox.js';

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
 * `outbox`: the deliveries this write queues, written with it or not at all.
 *
 * This is the create fast path. On PostgreSQL it is one statement (atomic on its own, so no
 * BEGIN/COMMIT): one round trip instead of six, which is most of what a create costs there. On
 * SQLite it is a few prepared statements in one transaction of the write batcher.
 */
export async function insertDocumentChecked(
  database: Conn | Database,
  doc: StoredDocument,
  side: SideRows,
  guards: InsertGuards,
  outbox: readonly OutboxRow[] = [],
): Promise<boolean> {
  const row = [
    doc.id,
    doc.type,
    doc.status,
    doc.rev,
    doc.createdAt,
    doc.updatedAt,
    doc.createdBy,
    doc.updatedBy,
    database.dialect.encodeData(doc.data),
  ];
  const refGuards = JSON.stringify(guards.references);
  const mediaGuards = JSON.stringify(guards.media);
  if (database.dialect.dataModifyingCtes) {
    const params = [...row, ...sideParams(side, refGuards, mediaGuards, outbox)];
    const result = await database.db.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, params));
    return result.rows.length === 1;
  }
  return inTransaction(database, async (conn) => {
    const inserted = await conn.db.executeQuery<{ seq: number }>(CompiledQuery.raw(SQLITE_INSERT, [...row, refGuards, mediaGuards]));
    if (inserted.rows.length === 0) return false;
    if (side.refs.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_REFS, [doc.id, JSON.stringify(side.refs)]));
    if (side.media.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_MEDIA, [doc.id, JSON.stringify(side.media)]));
    await conn.db.executeQuery(CompiledQuery.raw(SQLITE_SEARCH, [inserted.rows[0].seq, side.searchText]));
    await insertOutbox(conn, outbox);
    return true;
  });
}

/**
 * Writes `doc` as the next version of a document still at `expectedRev`: the replaced version
 * becomes a revision, references and media uses are replaced, the search text renewed. False,
 * with nothing written, when the revision moved on, a guard fails or a unique index refuses a
 * value; the caller then takes the locking path, whose checks say which.
 *
 * `outbox`: the deliveries this write queues, written with it or not at all.
 *
 * The update fast path: on PostgreSQL one statement without BEGIN/COMMIT (with the read before
 * it, two round trips instead of nine); on SQLite the ordinary statements in one transaction.
 */
export async function updateDocumentChecked(
  database: Conn | Database,
  doc: StoredDocument,
  expectedRev: number,
  side: SideRows,
  guards: InsertGuards,
  outbox: readonly OutboxRow[] = [],
): Promise<boolean> {
  const refGuards = JSON.stringify(guards.references);
  const mediaGuards = JSON.stringify(guards.media);
  try {
    if (database.dialect.dataModifyingCtes) {
      const params = [
        doc.id,
        expectedRev,
        doc.status,
        doc.rev,
        doc.updatedAt,
        doc.updatedBy,
        database.dialect.encodeData(doc.data),
        ...sideParams(side, refGuards, mediaGuards, outbox),
      ];
      return (await database.db.executeQuery(CompiledQuery.raw(POSTGRES_UPDATE, params))).rows.length === 1;
    }
    return await inTransaction(database, async (conn) => {
      if (guards.references.length > 0 || guards.media.length > 0) {
        const guard = await conn.db.executeQuery<{ ok: number }>(CompiledQuery.raw(SQLITE_GUARDS, [refGuards, mediaGuards]));
        if (!guard.rows[0]?.ok) return false;
      }
      if (!(await updateDocument(conn, doc, expectedRev, side))) return false;
      await insertOutbox(conn, outbox);
      return true;
    });
  } catch (err) {
    // A taken slug or unique value: nothing was written (one statement, or a rolled-back transaction).
    if (database.dialect.isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * The parameters both PostgreSQL statements end with, in the order their SQL numbers them:
 * search text, the two guard lists, references, media uses and the outbox rows.
 */
function sideParams(side: SideRows, refGuards: string, mediaGuards: string, outbox: readonly OutboxRow[]): unknown[] {
  return [side.searchText, refGuards, mediaGuards, JSON.stringify(side.refs), JSON.stringify(side.media), JSON.stringify(outbox)];
}

/** True when every reference guard (JSON `[{id, types}]`) and media guard (JSON `[id]`) holds. */
const postgresGuards = (references: string, media: string) => `
  not exists (
    select 1 from jsonb_array_elements(${references}::jsonb) g
    where not exists (select 1 from documents d where d.id = g->>'id' and (g->'types') @> to_jsonb(d.type))
  )
  and not exists (
    select 1 from jsonb_array_elements_text(${media}::jsonb) g(id)
    where not exists (select 1 from media m where m.id = g.id)
  )`;

/** The same on SQLite, with the two lists as the next two parameters. */
const SQLITE_GUARD_CONDITION = `
  not exists (
    select 1 from json_each(?) g
    where not exists (select 1 from documents d where d.id = g.value ->> '$.id' and d.type in (select value from json_each(g.value, '$.types')))
  )
  and not exists (select 1 from json_each(?) g where not exists (select 1 from media m where m.id = g.value))`;

// `on conflict do nothing` without a target covers every unique index: the id, slugs and unique
// fields. A failed guard leaves `ins` empty, and the side rows join on `ins`, so nothing is written.
// The foreign keys of the side rows are checked at the end of the statement, when `ins` is there.
const POSTGRES_INSERT = `
with guard as (select ${postgresGuards('$11', '$12')} as ok), ins as (
  insert into documents (id, type, status, rev, created_at, updated_at, created_by, updated_by, data, search)
  select $1, $2, $3, $4::integer, $5, $6, $7, $8, $9::jsonb, to_tsvector('${SEARCH_CONFIG}', $10) from guard where ok
  on conflict do nothing
  returning seq, id
), refs as (
  insert into document_refs (source_id, target_id, path)
  select ins.id, r->>'targetId', r->>'path' from ins, jsonb_array_elements($13::jsonb) r
), uses as (
  insert into document_media (source_id, media_id, path)
  select ins.id, r->>'targetId', r->>'path' from ins, jsonb_array_elements($14::jsonb) r
), ${postgresOutboxCte('ins', '$15')}
select seq from ins`;

// SQLite needs a WHERE on an INSERT … SELECT before ON CONFLICT (its parser's rule); the guards are it.
const SQLITE_INSERT = `
insert into documents (id, type, status, rev, created_at, updated_at, created_by, updated_by, data)
select ?, ?, ?, ?, ?, ?, ?, ?, ?
where ${SQLITE_GUARD_CONDITION}
on conflict do nothing
returning seq`;

const SQLITE_GUARDS = `select ${SQLITE_GUARD_CONDITION} as ok`;

/**
 * Two CTEs that make `table`'s rows of the updated document (`upd`) the JSON list `param` of
 * {targetId, path}: paths no longer used are deleted, the others upserted.
 */
const replaceSideRows = (name: string, table: string, targetColumn: string, param: string) => `${name}_gone as (
  delete from ${table} where source_id in (select id from upd)
    and path not in (select r->>'path' from jsonb_array_elements(${param}::jsonb) r)
), ${name}_set as (
  insert into ${table} (source_id, ${targetColumn}, path)
  select upd.id, r->>'targetId', r->>'path' from upd, jsonb_array_elements(${param}::jsonb) r
  on conflict (source_id, path) do update set ${targetColumn} = excluded.${targetColumn}
)`;

// The sub-statements of one statement run in no fixed order, so references are replaced without
// touching a row twice: paths no longer used are deleted, the others upserted.
const POSTGRES_UPDATE = `
with guard as (select ${postgresGuards('$9', '$10')} as ok), old as (
  select id, rev, status, data, updated_at, updated_by from documents where id = $1 and rev = $2
), upd as (
  update documents set status = $3, rev = $4, updated_at = $5, updated_by = $6, data = $7::jsonb, search = to_tsvector('${SEARCH_CONFIG}', $8)
  from guard where guard.ok and documents.id = $1 and documents.rev = $2
  returning documents.seq, documents.id
), revision as (
  insert into document_revisions (doc_id, rev, status, data, updated_at, updated_by)
  select old.id, old.rev, old.status, old.data, old.updated_at, old.updated_by from old join upd on upd.id = old.id
), ${replaceSideRows('refs', 'document_refs', 'target_id', '$11')},
${replaceSideRows('uses', 'document_media', 'media_id', '$12')},
${postgresOutboxCte('upd', '$13')}
select seq from upd`;

/** Inserts the JSON list (second parameter) of {targetId, path} as `table` rows of the document (first parameter). */
const sqliteSideRows = (table: string, targetColumn: string) =>
  `insert into ${table} (source_id, ${targetColumn}, path) select ?, value ->> '$.targetId', value ->> '$.path' from json_each(?)`;
const SQLITE_REFS = sqliteSideRows('document_refs', 'target_id');
const SQLITE_MEDIA = sqliteSideRows('document_media', 'media_id');
const SQLITE_SEARCH = `insert into documents_fts (rowid, body) values (?, ?)`;

nameStatement(POSTGRES_INSERT);
nameStatement(POSTGRES_UPDATE);
