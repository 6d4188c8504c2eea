import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { sqlitePath } from '../../packages/server/src/storage/database.js';
import type { TestDialect } from './database.js';

/** One table access of a plan: how a table (or its alias) is read, and through which index. */
export interface PlanAccess {
  /** The table as the plan names it: PostgreSQL's relation, SQLite's table or alias. */
  table: string;
  /** `seq`: every row of the table is read; `index`: rows are reached through `index`. */
  kind: 'seq' | 'index';
  index?: string;
  /** The plan line as the database printed it (node type, or SQLite's detail). */
  detail: string;
}

export interface Plan {
  accesses: PlanAccess[];
  /** Sort steps: PostgreSQL Sort nodes, SQLite temp b-trees for ORDER BY. */
  sorts: string[];
  /** The whole plan, for failure messages. */
  text: string;
}

export interface PlanReader {
  /** The plan the database chooses for `sql` with these values bound. */
  explain(sql: string, parameters: readonly unknown[]): Promise<Plan>;
  /**
   * The plan made without the values: PostgreSQL's generic plan, which a named prepared statement
   * switches to after a few runs; SQLite plans at prepare time anyway (all values bound as NULL).
   */
  explainGeneric(sql: string, parameterCount: number): Promise<Plan>;
  close(): Promise<void>;
}

/** A connection of its own to the app's database that explains statements without running them. */
export async function openPlanReader(on: TestDialect, url: string): Promise<PlanReader> {
  if (on === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const planOf = (rows: Array<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>) => {
      const root = rows[0]['QUERY PLAN'][0].Plan;
      const plan: Plan = { accesses: [], sorts: [], text: JSON.stringify(root, null, 1) };
      walkPg(root, plan);
      return plan;
    };
    return {
      async explain(sql, parameters) {
        return planOf((await client.query(`explain (format json) ${sql}`, [...parameters])).rows);
      },
      async explainGeneric(sql, parameterCount) {
        await client.query(`prepare vellum_plan_check as ${sql}`);
        try {
          await client.query('set plan_cache_mode = force_generic_plan');
          const values = Array.from({ length: parameterCount }, () => 'null').join(', ');
          return planOf((await client.query(`explain (format json) execute vellum_plan_check${parameterCount ? `(${values})` : ''}`)).rows);
        } finally {
          await client.query('reset plan_cache_mode');
          await client.query('deallocate vellum_plan_check');
        }
      },
      close: () => client.end(),
    };
  }
  const db = new BetterSqlite3(sqlitePath(url), { readonly: true });
  const explain = (sql: string, parameters: readonly unknown[]): Plan => {
    const rows = db.prepare(`explain query plan ${sql}`).all(...parameters) as Array<{ detail: string }>;
    const plan: Plan = { accesses: [], sorts: [], text: rows.map((r) => r.detail).join('\n') };
    for (const { detail } of rows) {
      if (/^USE TEMP B-TREE FOR .*ORDER BY/.test(detail)) plan.sorts.push(detail);
      const m = /^(SCAN|SEARCH) (\S+)(?: USING (?:COVERING )?INDEX (\S+)| USING (INTEGER PRIMARY KEY))?/.exec(detail);
      if (!m) continue;
      const index = m[3] ?? (m[4] ? 'INTEGER PRIMARY KEY' : undefined);
      plan.accesses.push({ table: m[2], kind: index ? 'index' : 'seq', index, detail });
    }
    return plan;
  };
  return {
    explain: async (sql, parameters) => explain(sql, parameters),
    explainGeneric: async (sql, parameterCount) =>
      explain(
        sql,
        Array.from({ length: parameterCount }, () => null),
      ),
    close: async () => {
      db.close();
    },
  };
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgNode[];
}

function walkPg(node: PgNode, plan: Plan): void {
  const type = node['Node Type'];
  if (type === 'Sort' || type === 'Incremental Sort') plan.sorts.push(type);
  const table = node['Relation Name'];
  if (type === 'Seq Scan' && table) plan.accesses.push({ table, kind: 'seq', detail: type });
  const index = node['Index Name'];
  // A Bitmap Heap Scan names the table; its Bitmap Index Scan child names the index.
  if (index) plan.accesses.push({ table: table ?? '', kind: 'index', index, detail: type });
  for (const child of node.Plans ?? []) walkPg(child, plan);
}
