import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Conn } from '../connection.js';
import type { BackupTable } from './backup-tables.js';

/** A row as a backup file holds it: JSON columns as values, bigints as numbers, whatever the engine. */
export type BackupRow = Record<string, unknown>;

/** Rows read per query: a page of documents is a few megabytes at most. */
const PAGE_ROWS = 500;

// The catalogue types every column; reading any table by name is what a backup is.
const untyped = (conn: Conn) => conn.db as unknown as Kysely<Record<string, BackupRow>>;

/** How many rows of the table the backup will hold. */
export async function countBackupRows(conn: Conn, table: BackupTable): Promise<number> {
  let q = untyped(conn)
    .selectFrom(table.name)
    .select((eb) => eb.fn.countAll().as('n'));
  if (table.onlyKeys) q = q.where('key', 'in', [...table.onlyKeys]);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The table's rows in key order, a page at a time. Each page starts after the last key of the one
 * before (keyset), so a page costs the same at the end of a million rows as at the start.
 */
export async function* readBackupRows(conn: Conn, table: BackupTable): AsyncGenerator<BackupRow[]> {
  let after: unknown[] | undefined;
  for (;;) {
    let q = untyped(conn)
      .selectFrom(table.name)
      .select([...table.columns])
      .limit(PAGE_ROWS);
    for (const column of table.key) q = q.orderBy(column);
    if (table.onlyKeys) q = q.where('key', 'in', [...table.onlyKeys]);
    if (after) q = q.where(keyAfter(table.key, after));
    const rows = await q.execute();
    if (rows.length === 0) return;
    yield rows.map((row) => portable(conn, table, row));
    if (rows.length < PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = table.key.map((k) => last[k]);
  }
}

/** `(k1, k2) > (v1, v2)`: row values compare as the ORDER BY sorts, on both engines. */
function keyAfter(key: readonly string[], values: readonly unknown[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(key.map((k) => sql.ref(k)))}) > (${sql.join(values)})`;
}

/** The row with JSON text parsed (SQLite) and bigint strings as numbers (PostgreSQL). */
function portable(conn: Conn, table: BackupTable, row: BackupRow): BackupRow {
  for (const column of table.json ?? []) {
    const value = row[column];
    if (conn.dialect.jsonColumnType === 'text' && typeof value === 'string') row[column] = JSON.parse(value);
  }
  for (const column of table.bigint ?? []) {
    const value = row[column];
    if (typeof value === 'string') row[column] = Number(value);
  }
  return row;
}

/**
 * Inserts rows of the file into the table, keys, identities and timestamps as they were. Rows of
 * a searched table (documents, pending drafts) may carry their search text under
 * SEARCH_TEXT_KEY: it is indexed the engine's way with them.
 */
export async function insertBackupRows(conn: Conn, table: BackupTable, rows: readonly BackupRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (table.onlyKeys) {
    // The instance table of a new database may hold the row already (a setting saved by a first start).
    const keys = rows.map((r) => String(r.key));
    await untyped(conn).deleteFrom(table.name).where('key', 'in', keys).execute();
  }
  await conn.dialect.restore.insertRows(conn.db, table.name, table.columns, table.json ?? [], JSON.stringify(rows));
}

/** What follows the last row: sequences moved past the restored keys. */
export async function finishRestoredRows(conn: Conn): Promise<void> {
  await conn.dialect.restore.finish(conn.db);
}

/**
 * Which of the tables of content and accounts hold rows (of those in `present`, the tables the
 * schema has so far): a restore goes only into a database where none do.
 */
export async function tablesHoldingContent(conn: Conn, present: readonly string[]): Promise<string[]> {
  const held: string[] = [];
  for (const name of ['users', 'documents', 'media', 'api_tokens', 'webhooks'] as const) {
    if (!present.includes(name)) continue;
    const row = await conn.db
      .selectFrom(name)
      .select(sql<number>`1`.as('one'))
      .limit(1)
      .executeTakeFirst();
    if (row) held.push(name);
  }
  return held;
}
