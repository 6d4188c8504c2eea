import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countBackupRows, readBackupRows } from '../../packages/server/src/storage/backup/backup-rows.js';
import { BACKUP_TABLES, NOT_BACKED_UP, backupTable } from '../../packages/server/src/storage/backup/backup-tables.js';
import { openDatabase, type Database } from '../../packages/server/src/storage/database.js';
import { migrateToLatest } from '../../packages/server/src/storage/migrations/index.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from '../helpers/database.js';

/**
 * The backup's table catalogue against a migrated database of each engine (docs/backup.md): every
 * table is either copied (with exactly its columns) or left out with a reason, so a migration that
 * adds a table or a column fails here until backup-tables.ts says what becomes of it. And a
 * snapshot read while another connection writes sees the database as it was at its start.
 */

/** Tables of the engines' own, or of the migrator and the search index: never content. */
const ENGINE_TABLES = /^(kysely_migration|kysely_migration_lock|sqlite_.*|documents_fts.*|document_drafts_fts.*)$/;

async function tablesAndColumns(database: Database): Promise<Map<string, string[]>> {
  const tables = await database.db.introspection.getTables();
  return new Map(tables.map((t) => [t.name, t.columns.map((c) => c.name).sort()]));
}

describe.each<TestDialect>(['sqlite', 'postgres'])('backup catalogue on %s', (engine) => {
  let db: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    db = await createTestDatabase(engine);
    database = await openDatabase(db.url);
    await migrateToLatest(database);
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('names every table of the schema, copied or left out with a reason, and none twice', async () => {
    const actual = [...(await tablesAndColumns(database)).keys()].filter((t) => !ENGINE_TABLES.test(t)).sort();
    const copied = BACKUP_TABLES.map((t) => t.name);
    const left = Object.keys(NOT_BACKED_UP);
    expect([...copied, ...left].sort()).toEqual(actual);
    expect(new Set(copied).size).toBe(copied.length);
    expect(copied.filter((t) => left.includes(t))).toEqual([]);
  });

  it('copies exactly the columns each table has (PostgreSQL’s search vectors are rebuilt instead)', async () => {
    const columns = await tablesAndColumns(database);
    for (const table of BACKUP_TABLES) {
      const actual = (columns.get(table.name) ?? []).filter((c) => c !== 'search');
      expect([...table.columns].sort(), table.name).toEqual(actual);
      for (const c of [...table.key, ...(table.json ?? []), ...(table.bigint ?? []), ...(table.secretColumns ?? [])]) {
        expect(table.columns, `${table.name}.${c}`).toContain(c);
      }
    }
  });

  it('lists each table after the tables its rows refer to, so a restore inserts in that order', async () => {
    const order: string[] = BACKUP_TABLES.map((t) => t.name);
    const edges: Array<[string, string]> = [];
    if (engine === 'postgres') {
      const rows = await sql<{ source: string; target: string }>`
        select cl.relname as source, ref.relname as target from pg_constraint c
        join pg_class cl on cl.oid = c.conrelid join pg_class ref on ref.oid = c.confrelid
        where c.contype = 'f'`.execute(database.db);
      edges.push(...rows.rows.map((r) => [r.source, r.target] as [string, string]));
    } else {
      for (const table of order) {
        const rows = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${table})`.execute(database.db);
        edges.push(...rows.rows.map((r) => [table, r.table] as [string, string]));
      }
    }
    const copiedEdges = edges.filter(([s, t]) => order.includes(s) && s !== t);
    expect(copiedEdges.length).toBeGreaterThan(10);
    for (const [source, target] of copiedEdges) {
      expect(order.includes(target), `${source} refers to ${target}, which a backup leaves out`).toBe(true);
      expect(order.indexOf(target), `${source} after ${target}`).toBeLessThan(order.indexOf(source));
    }
  });

  it('reads a snapshot: rows committed while it reads are not in it', async () => {
    const users = backupTable('users')!;
    const insert = (id: string) =>
      database.db
        .insertInto('users')
        .values({
          id,
          username: id,
          email: `${id}@example.com`,
          password_hash: null,
          first_name: null,
          last_name: null,
          role: 'editor',
          permissions: '[]',
          active: 1,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
          last_login: null,
        })
        .execute();
    for (let i = 0; i < 1200; i++) await insert(`earlier-${String(i).padStart(4, '0')}`);
    const read = await database.snapshot(async (conn) => {
      const total = await countBackupRows(conn, users);
      const ids: string[] = [];
      let pages = 0;
      for await (const page of readBackupRows(conn, users)) {
        // Writes by another connection between the pages, with keys after the page's: the snapshot does not see them.
        if (pages++ === 0) for (let i = 0; i < 5; i++) await insert(`later-${i}`);
        ids.push(...page.map((r) => String(r.id)));
      }
      return { total, ids };
    });
    expect(read.total).toBe(1200);
    expect(read.ids).toHaveLength(1200);
    expect(read.ids.every((id) => id.startsWith('earlier-'))).toBe(true);
    // Keyset pages in key order, none skipped or repeated.
    expect(read.ids).toEqual([...read.ids].sort());
    expect(new Set(read.ids).size).toBe(1200);
    const now = await database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(now.n)).toBe(1205);
  });
});
