import { expect } from 'vitest';
import { statementName } from '../../packages/server/src/storage/postgres/named-statements.js';
import type { TestApp } from './app.js';
import { dialect } from './database.js';
import type { Plan, PlanReader } from './explain-plan.js';
import { spyQueries } from './query-spy.js';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** What one statement's plan must show. */
export interface Expected {
  /** Indexes the plan reads (each of them). */
  uses: string[];
  /** Sort steps allowed: the deferred join sorts its one page of full rows again; a narrow filter may sort its matches. */
  sorts?: number;
}

/** How a plan names `documents`: the deferred join reads it a second time as `d` (SQLite names the alias). */
export const DOCUMENTS = new Set(['documents', 'd']);

/**
 * The checks of a query-plan suite over the app `get()` gives (set once the seeded app is up):
 * the statements a request sends on `documents`, and that each reaches its rows through the
 * expected indexes, never a sequential scan, with no more sorting than allowed.
 */
export function planExpectations(get: () => { t: TestApp; admin: string; plans: PlanReader }) {
  /** The statements on `documents` one request makes the app send, counting left out. */
  async function statementsOf(url: string, token?: string): Promise<Statement[]> {
    const seen: Statement[] = [];
    const restore = spyQueries(get().t, (sql, parameters) => {
      if (/\bdocuments\b/.test(sql) && !/^\s*select count\(/i.test(sql)) seen.push({ sql, parameters });
    });
    try {
      const res = await get().t.request({ method: 'GET', url, token });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      restore();
    }
    return seen;
  }

  function describePlan(s: Statement, plan: Plan): string {
    return `${s.sql.trim()}\n${JSON.stringify(s.parameters)}\n${plan.text}`;
  }

  function expectIndexed(s: Statement, plan: Plan, expected: Expected): void {
    const seqScans = plan.accesses.filter((a) => a.kind === 'seq' && DOCUMENTS.has(a.table));
    expect(seqScans, `sequential scan of documents:\n${describePlan(s, plan)}`).toEqual([]);
    const used = plan.accesses.filter((a) => a.kind === 'index').map((a) => a.index);
    for (const index of expected.uses) expect(used, `index ${index} unused:\n${describePlan(s, plan)}`).toContain(index);
    expect(plan.sorts.length, `sorted:\n${describePlan(s, plan)}`).toBeLessThanOrEqual(expected.sorts ?? 0);
  }

  /** Runs the request, then checks each statement it sent, in order, against `expected`. */
  async function expectPlans(url: string, expected: Expected[], as: 'admin' | 'anonymous' = 'admin'): Promise<void> {
    const { admin, plans } = get();
    const statements = await statementsOf(url, as === 'admin' ? admin : undefined);
    expect(
      statements.map((s) => s.sql.trim()),
      url,
    ).toHaveLength(expected.length);
    for (const [i, s] of statements.entries()) {
      expectIndexed(s, await plans.explain(s.sql, s.parameters), expected[i]);
      // PostgreSQL plans a named (prepared) statement once for every value after a few runs.
      if (dialect === 'postgres' && statementName(s.sql))
        expectIndexed(s, await plans.explainGeneric(s.sql, s.parameters.length), expected[i]);
    }
  }

  return { statementsOf, describePlan, expectIndexed, expectPlans };
}
