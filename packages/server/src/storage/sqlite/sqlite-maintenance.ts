import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/** How often the log is copied into the database file: the log holds at most this long of writes. */
const CHECKPOINT_EVERY_MS = 200;
/**
 * A log this long (pages; 16 MB at SQLite's 4 KiB pages), once copied, is started over by the
 * writer: the file then stays about this size (`journal_size_limit`) plus the writes of one turn.
 */
export const RESTART_LOG_PAGES = 4096;
/** How often the search index is merged: each write adds a small segment, so writes make work often. */
const MERGE_EVERY_MS = 50;
/**
 * Pages written by one merge step, which holds the write lock (the writer waits for it without
 * holding the event loop: sqlite-driver.ts). A step is an autocommit statement, so the writer
 * can take the lock between two steps.
 */
const MERGE_PAGES = 16;
/** Merge steps stop after this long and go on at the next turn. */
const MERGE_BUDGET_MS = 20;
/**
 * The planner's statistics are brought up to date this long after opening (once the field
 * indexes exist: app.ts makes them right after), then this often, and on close. `PRAGMA optimize`
 * analyzes only tables that need it, so most turns do nothing.
 */
const STATS_FIRST_MS = 2_000;
const STATS_EVERY_MS = 10 * 60_000;
/** Rows ANALYZE samples per index: estimates good enough to choose an index, in milliseconds even at a million documents. */
const ANALYSIS_LIMIT = 1000;

/**
 * Background upkeep of an SQLite database on a thread beside the event loop (the read worker's),
 * with a connection of its own, so that no
 * request's COMMIT, on the main thread, does it (docs/architecture.md, "Writes on SQLite"):
 * - Checkpoints. SQLite's automatic checkpoint runs inside the COMMIT that finds the log past
 *   1 000 pages, copying megabytes into the database file and syncing it (tens of milliseconds at
 *   a million documents, while every request waits). The writer's automatic checkpoint is off.
 *   But SQLite starts the log over only when a write begins with the log wholly copied, and
 *   under writes that never pause (an import, a benchmark) a checkpoint beside the writer always
 *   trails it: the log grew by every page written, past a gigabyte in a ten-second benchmark. So
 *   once the thread has copied a long log whole, the writer checkpoints what came since (a few
 *   pages) with RESTART before its next transaction, and the log starts over.
 * - Search-index merges. FTS5 writes each transaction's terms as a new segment and merges
 *   segments inside later writes' COMMITs; a merge that reaches a term in every document rewrites
 *   that term's whole list (tens of milliseconds to seconds at a million documents). Its automatic
 *   merging is off (a setting the index keeps) and this thread merges instead.
 * - The planner's statistics. Without them SQLite guesses that every index is as selective as any
 *   other, and a filter on an indexed field ordered by date walks the date index row by row
 *   (found at 20 000 localized posts: 50 ms a request instead of one). A database that no one
 *   ANALYZEs never has them; this thread runs `PRAGMA optimize` after opening, every ten minutes
 *   and on close, as SQLite advises for long-lived connections.
 */
export class SqliteMaintenance {
  private exited = false;

  /**
   * `thread`: the read worker's (sqlite-read-worker.ts), whose source carries this code: a thread
   * of its own would carry a V8 isolate of its own, about 8 MB, for work that keeps a thread busy
   * a few milliseconds at a time (docs/benchmarks.md, "Server memory").
   * `onFailure`: the thread died; the writer then checkpoints and merges for itself again, so
   * neither the log nor the search index's segments grow without end.
   * `onLogCopied`: a long log was copied whole; the writer may start it over.
   */
  constructor(
    private readonly thread: Worker,
    path: string,
    onFailure: (err: Error) => void,
    onLogCopied: () => void = () => {},
  ) {
    const maintain = {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path,
      checkpointEveryMs: CHECKPOINT_EVERY_MS,
      restartLogPages: RESTART_LOG_PAGES,
      mergeEveryMs: MERGE_EVERY_MS,
      mergePages: MERGE_PAGES,
      mergeBudgetMs: MERGE_BUDGET_MS,
      statsFirstMs: STATS_FIRST_MS,
      statsEveryMs: STATS_EVERY_MS,
      analysisLimit: ANALYSIS_LIMIT,
    };
    this.thread.once('error', onFailure);
    this.thread.once('exit', () => (this.exited = true));
    this.thread.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && 'logCopied' in m) onLogCopied();
    });
    this.thread.postMessage({ maintain });
  }

  /** How many merge statements the thread has run (tests and diagnostics: it must stay idle while nothing is written). */
  async mergeSteps(): Promise<number> {
    return (await this.ask<number>('steps', 'steps')) ?? 0;
  }

  /**
   * The count of merge statements once `turns` more merge turns have run (tests: whether the thread
   * rests is seen over its own turns, not over a wall-clock wait). One asker at a time.
   */
  async mergeStepsAfterTurns(turns: number): Promise<number> {
    return (await this.ask<number>({ afterTurns: turns }, 'stepsAfterTurns')) ?? 0;
  }

  /**
   * One more PASSIVE checkpoint, on the thread, answered once done: the writer waits for it (and
   * holds off its next transaction) so that transaction finds the log wholly copied and starts it
   * over (log-restart.ts).
   */
  async copyLog(): Promise<void> {
    await this.ask('copy', 'copied');
  }

  /** Runs `PRAGMA optimize` now (tests); answers how many runs have completed. */
  async optimize(): Promise<number> {
    return (await this.ask<number>('optimize', 'analyzed')) ?? 0;
  }

  /** A last checkpoint, and the upkeep's connection closed; the thread itself is the read worker's to end. */
  async close(): Promise<void> {
    await this.ask('stop', 'stopped');
  }

  /** Posts `message` and waits for the answer carrying `key` (its value), or for the thread's end (undefined). */
  private ask<T>(message: unknown, key: string): Promise<T | undefined> {
    if (this.exited) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const done = (value: T | undefined) => {
        this.thread.off('message', answer);
        this.thread.off('exit', gone);
        resolve(value);
      };
      const answer = (m: unknown) => {
        if (m === key) done(undefined);
        else if (typeof m === 'object' && m !== null && key in m) done((m as Record<string, T>)[key]);
      };
      const gone = () => done(undefined);
      this.thread.on('message', answer);
      this.thread.once('exit', gone);
      this.thread.postMessage(message);
    });
  }
}
