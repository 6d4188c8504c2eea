import { CompiledQuery } from 'kysely';
import type { TransactionSource } from '../connection.js';
import { nameStatement } from '../postgres/named-statements.js';
import { SEARCH_CONFIG } from '../postgres/postgres-dialect.js';
import type { TakeNotice } from '../pubsub/message-channel.js';
import { postgresOutboxCte, type OutboxRow } from '../webhooks/webhook-outbox.js';
import { DOCUMENT_COLUMNS, documentRowParams } from './document-rows.js';
import type { GuardedInsert, GuardedUpdate, InsertGuards, SideRows } from './document-writes.js';

/**
 * The guarded writes on PostgreSQL (guarded-writes.ts): each one statement of data-modifying CTEs,
 * atomic on its own, so no BEGIN/COMMIT — one round trip instead of six for a create, two with
 * the read before it instead of nine for an update. The outbox rows are a CTE of the same statement,
 * and the change message a `pg_notify` of it (`takeNotice`): PostgreSQL delivers it when the
 * statement commits, and only if it wrote — one round trip less than a NOTIFY after it, and no
 * committed write whose message a crash in between could lose (docs/realtime.md, "Several nodes").
 */
export const postgresGuardedInsert: GuardedInsert = (database, doc, side, guards, outbox, takeNotice) => {
  const row = documentRowParams(doc, database.dialect.encodeData(doc.data));
  return writesOneRow(database, POSTGRES_INSERT, [...row, ...sideParams(side, guards, outbox, takeNotice)]);
};

export const postgresGuardedUpdate: GuardedUpdate = (database, doc, expectedRev, side, guards, outbox, takeNotice) => {
  const changes = [doc.id, expectedRev, doc.status, doc.rev, doc.updatedAt, doc.updatedBy, database.dialect.encodeData(doc.data)];
  return writesOneRow(database, POSTGRES_UPDATE, [...changes, ...sideParams(side, guards, outbox, takeNotice)]);
};

/** Runs one of the statements below: each answers the written document's `seq`, so one row back means written. */
async function writesOneRow(database: TransactionSource, statement: string, params: unknown[]): Promise<boolean> {
  return (await database.db.executeQuery(CompiledQuery.raw(statement, params))).rows.length === 1;
}

/**
 * The parameters both PostgreSQL statements end with, in the order their SQL numbers them:
 * search text, the two guard lists, references, media uses, the outbox rows, then the notice's
 * channel and payload (both null: none).
 */
function sideParams(side: SideRows, guards: InsertGuards, outbox: readonly OutboxRow[], takeNotice?: TakeNotice): unknown[] {
  const notice = takeNotice?.();
  return [
    side.searchText,
    JSON.stringify(guards.references),
    JSON.stringify(guards.media),
    JSON.stringify(side.refs),
    JSON.stringify(side.media),
    JSON.stringify(outbox),
    notice?.channel ?? null,
    notice?.payload ?? null,
  ];
}

/**
 * The statements' last line: the written row's `seq`, and the notice sent once per written row. A
 * scalar subquery of the select list runs for each row it returns, so a statement that wrote
 * nothing notifies nothing; `pg_notify` inside a statement is delivered at commit.
 */
const returningSeq = (source: string, channel: string, payload: string) =>
  `select seq, (select count(*) from (select pg_notify(${channel}, ${payload}) where ${payload}::text is not null) n) as noticed from ${source}`;

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

// `on conflict do nothing` without a target covers every unique index: the id, slugs and unique
// fields. A failed guard leaves `ins` empty, and the side rows join on `ins`, so nothing is written.
// The foreign keys of the side rows are checked at the end of the statement, when `ins` is there.
const POSTGRES_INSERT = `
with guard as (select ${postgresGuards('$11', '$12')} as ok), ins as (
  insert into documents (${DOCUMENT_COLUMNS.join(', ')}, search)
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
${returningSeq('ins', '$16', '$17')}`;

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
${returningSeq('upd', '$14', '$15')}`;

nameStatement(POSTGRES_INSERT);
nameStatement(POSTGRES_UPDATE);
