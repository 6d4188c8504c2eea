import { CompiledQuery } from 'kysely';
import { inTransaction } from '../connection.js';
import { insertOutbox } from '../webhooks/webhook-outbox.js';
import { DOCUMENT_COLUMNS, documentRowParams } from './document-rows.js';
import { updateDocument, type GuardedInsert, type GuardedUpdate } from './document-writes.js';

/**
 * The guarded writes on SQLite (guarded-writes.ts): a few prepared statements in one transaction
 * of the write batcher, the guards a condition of the insert itself or one query before the update.
 */
export const sqliteGuardedInsert: GuardedInsert = (database, doc, side, guards, outbox) => {
  const row = documentRowParams(doc, database.dialect.encodeData(doc.data));
  return inTransaction(database, async (conn) => {
    const guardLists = [JSON.stringify(guards.references), JSON.stringify(guards.media)];
    const inserted = await conn.db.executeQuery<{ seq: number }>(CompiledQuery.raw(SQLITE_INSERT, [...row, ...guardLists]));
    if (inserted.rows.length === 0) return false;
    if (side.refs.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_REFS, [doc.id, JSON.stringify(side.refs)]));
    if (side.media.length > 0) await conn.db.executeQuery(CompiledQuery.raw(SQLITE_MEDIA, [doc.id, JSON.stringify(side.media)]));
    await conn.db.executeQuery(CompiledQuery.raw(SQLITE_SEARCH, [inserted.rows[0].seq, side.searchText]));
    await insertOutbox(conn, outbox);
    return true;
  });
};

export const sqliteGuardedUpdate: GuardedUpdate = (database, doc, expectedRev, side, guards, outbox) =>
  inTransaction(database, async (conn) => {
    if (guards.references.length > 0 || guards.media.length > 0) {
      const params = [JSON.stringify(guards.references), JSON.stringify(guards.media)];
      const guard = await conn.db.executeQuery<{ ok: number }>(CompiledQuery.raw(SQLITE_GUARDS, params));
      if (!guard.rows[0]?.ok) return false;
    }
    if (!(await updateDocument(conn, doc, expectedRev, side))) return false;
    await insertOutbox(conn, outbox);
    return true;
  });

/** True when every reference guard (JSON `[{id, types}]`, first parameter) and media guard (JSON `[id]`, second) holds. */
const SQLITE_GUARD_CONDITION = `
  not exists (
    select 1 from json_each(?) g
    where not exists (select 1 from documents d where d.id = g.value ->> '$.id' and d.type in (select value from json_each(g.value, '$.types')))
  )
  and not exists (select 1 from json_each(?) g where not exists (select 1 from media m where m.id = g.value))`;

// SQLite needs a WHERE on an INSERT … SELECT before ON CONFLICT (its parser's rule); the guards are it.
const SQLITE_INSERT = `
insert into documents (${DOCUMENT_COLUMNS.join(', ')})
select ${DOCUMENT_COLUMNS.map(() => '?').join(', ')}
where ${SQLITE_GUARD_CONDITION}
on conflict do nothing
returning seq`;

const SQLITE_GUARDS = `select ${SQLITE_GUARD_CONDITION} as ok`;

/** Inserts the JSON list (second parameter) of {targetId, path} as `table` rows of the document (first parameter). */
const sqliteSideRows = (table: string, targetColumn: string) =>
  `insert into ${table} (source_id, ${targetColumn}, path) select ?, value ->> '$.targetId', value ->> '$.path' from json_each(?)`;
const SQLITE_REFS = sqliteSideRows('document_refs', 'target_id');
const SQLITE_MEDIA = sqliteSideRows('document_media', 'media_id');
const SQLITE_SEARCH = `insert into documents_fts (rowid, body) values (?, ?)`;
