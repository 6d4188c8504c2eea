import type { TestApp } from './app.js';

type Executor = { executeQuery: (query: { sql: string }, ...rest: unknown[]) => Promise<unknown> };

/**
 * Sees every SQL statement the app runs (through Kysely's executor, and the SQLite read worker) until the returned function
 * restores it. `before` may also hold a statement back by returning a promise.
 */
export function spyQueries(t: TestApp, before: (sql: string) => void | Promise<void>): () => void {
  const executor = (t.app.services.database.db as unknown as { getExecutor(): Executor }).getExecutor();
  const original = executor.executeQuery.bind(executor);
  executor.executeQuery = async (query, ...rest) => {
    await before(query.sql);
    return original(query, ...rest);
  };
  // On SQLite, reads that may be slow run on the read worker's thread (storage/read-rows.ts): seen too.
  const worker = t.app.services.database.slowReads;
  const originalAll = worker?.all.bind(worker);
  if (worker && originalAll)
    worker.all = async <T>(sql: string, params: readonly unknown[]) => {
      await before(sql);
      return originalAll<T>(sql, params);
    };
  return () => {
    executor.executeQuery = original;
    if (worker && originalAll) worker.all = originalAll;
  };
}
