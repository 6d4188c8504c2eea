import { afterAll, beforeAll } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from './app.js';
import { dialect } from './database.js';
import { openPlanReader, type PlanReader } from './explain-plan.js';
import { seedDocumentsBySql } from './seed-documents-by-sql.js';

/**
 * The frame of a query-plan suite: an app with `schemas`, `posts` posts seeded underneath it by
 * SQL, the admin signed in, and a plan reader on the same database; all closed after the file.
 * `ready` hands them to the suite's own variables.
 */
export function useSeededPlanApp(
  schemas: unknown[],
  posts: number,
  ready: (t: TestApp, admin: string, plans: PlanReader) => void,
  /** More config beside `schemas` (`locales`), and more seeding after the posts (before the plan reader opens). */
  opts: { config?: Record<string, unknown>; seed?: (url: string) => Promise<void> } = {},
): void {
  let t: TestApp | undefined;
  let plans: PlanReader | undefined;
  beforeAll(async () => {
    t = await startTestApp({ ...opts.config, schemas });
    await seedDocumentsBySql(dialect, t.db.url, posts);
    await opts.seed?.(t.db.url);
    const admin = await t.login(ADMIN.username, ADMIN.password);
    plans = await openPlanReader(dialect, t.db.url);
    ready(t, admin, plans);
  }, 300_000);
  afterAll(async () => {
    await plans?.close();
    await t?.close();
  });
}
