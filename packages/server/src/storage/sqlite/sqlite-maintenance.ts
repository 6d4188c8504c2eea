import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's code, run as a CommonJS script (`eval`, as in sqlite-read-worker.ts), with a
 * connection of its own that never waits for a lock (`busy_timeout = 0`: what it cannot do now,
 * it does on a later turn):
 * - every CHECKPOINT_EVERY_MS a PASSIVE checkpoint copies the write-ahead log into the database
 *   file (it never waits for the writer or a reader, and neither waits for it);
 * - every MERGE_EVERY_MS it merges the search index's segments (FTS5 'merge', MERGE_PAGES pages a
 *   step, steps while there is work, for at most MERGE_BUDGET_MS), with the index's own automatic
 *   merging switched off, so no request's COMMIT does that work.
 */
const MAINTENANCE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another checkpoint runs, say a second process's): the next turn tries again.
  }
};
let statements; // prepared once the search table is there
let steps = 0; // merge statements run, for tests and diagnostics (the 'steps' message)
const mergeStep = () => {
  if (!statements) {
    // Persistent FTS5 setting: the writer's COMMITs stop merging (their crisis merge stays, as a
    // bound if this thread falls behind). Until the migrations have made the table, nothing to do.
    db.prepare("insert into documents_fts (documents_fts, rank) values ('automerge', 0)").run();
    statements = {
      changes: db.prepare('select total_changes() as n'),
      merge: db.prepare("insert into documents_fts (documents_fts, rank) values ('merge', ?)"),
    };
  }
  const before = statements.changes.get().n;
  statements.merge.run(workerData.mergePages);
  steps++;
  // The command itself counts as one change: a step that merged something counts two or more
  // (FTS5 documentation, "The 'merge' Command").
  return statements.changes.get().n - before >= 2;
};
let turns = 0; // merge turns taken, and the turn each 'afterTurns' asker waits for (tests)
const waiting = [];
let stopped = false;
// data_version changes when another connection commits: while it stays, the index is as merged
// as it was last found, and no step (a write, which takes the lock) is tried.
let mergedAt = -1;
const merge = () => {
  const version = db.pragma('data_version', { simple: true });
  if (version === mergedAt) return;
  const until = Date.now() + workerData.mergeBudgetMs;
  try {
    let worked = true;
    while (!stopped && (worked = mergeStep()) && Date.now() < until);
    if (!worked) mergedAt = version;
  } catch {
    // Busy (the writer holds the lock: it goes first), or no search table yet: the next turn.
  }
};
const mergeTurn = () => {
  merge();
  turns++;
  while (waiting.length > 0 && waiting[0] <= turns) {
    waiting.shift();
    parentPort.postMessage({ stepsAfterTurns: steps });
  }
};
const mergeTimer = setInterval(mergeTurn, workerData.mergeEveryMs);
const checkpointTimer = setInterval(checkpoint, workerData.checkpointEveryMs);
parentPort.on('message', (m) => {
  if (m === 'steps') return parentPort.postMessage({ steps });
  if (typeof m === 'object' && m !== null && 'afterTurns' in m) return waiting.push(turns + m.afterTurns);
  if (m !== 'stop') return;
  stopped = true;
  clearInterval(mergeTimer);
  clearInterval(checkpointTimer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
`;

/** How often the log is copied into the database file: the log holds at most this long of writes. */
const CHECKPOINT_EVERY_MS = 200;
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
 * Background upkeep of an SQLite database on a thread and connection of its own, so that no
 * request's COMMIT, on the main thread, does it (docs/architecture.md, "Writes on SQLite"):
 * - Checkpoints. SQLite's automatic checkpoint runs inside the COMMIT that finds the log past
 *   1 000 pages, copying megabytes into the database file and syncing it (tens of milliseconds at
 *   a million documents, while every request waits). The writer's automatic checkpoint is off.
 * - Search-index merges. FTS5 writes each transaction's terms as a new segment and merges
 *   segments inside later writes' COMMITs; a merge that reaches a term in every document rewrites
 *   that term's whole list (tens of milliseconds to seconds at a million documents). Its automatic
 *   merging is off (a setting the index keeps) and this thread merges instead.
 */
export class SqliteMaintenance {
  private readonly worker: Worker;

  /**
   * `onFailure`: the thread died; the writer then checkpoints and merges for itself again, so
   * neither the log nor the search index's segments grow without end.
   */
  constructor(path: string, onFailure: (err: Error) => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const workerData = {
      driver,
      path,
      checkpointEveryMs: CHECKPOINT_EVERY_MS,
      mergeEveryMs: MERGE_EVERY_MS,
      mergePages: MERGE_PAGES,
      mergeBudgetMs: MERGE_BUDGET_MS,
    };
    this.worker = new Worker(MAINTENANCE_SOURCE, { eval: true, workerData });
    this.worker.unref();
    this.worker.once('error', onFailure);
  }

  /** How many merge statements the thread has run (tests and diagnostics: it must stay idle while nothing is written). */
  mergeSteps(): Promise<number> {
    return new Promise((resolve) => {
      const answer = (m: unknown) => {
        if (typeof m !== 'object' || m === null || !('steps' in m)) return;
        this.worker.off('message', answer);
        resolve((m as { steps: number }).steps);
      };
      this.worker.on('message', answer);
      this.worker.postMessage('steps');
    });
  }

  /**
   * The count of merge statements once `turns` more merge turns have run (tests: whether the thread
   * rests is seen over its own turns, not over a wall-clock wait). One asker at a time.
   */
  mergeStepsAfterTurns(turns: number): Promise<number> {
    return new Promise((resolve) => {
      const answer = (m: unknown) => {
        if (typeof m !== 'object' || m === null || !('stepsAfterTurns' in m)) return;
        this.worker.off('message', answer);
        resolve((m as { stepsAfterTurns: number }).stepsAfterTurns);
      };
      this.worker.on('message', answer);
      this.worker.postMessage({ afterTurns: turns });
    });
  }

  /** A last checkpoint, then the thread ends. */
  async close(): Promise<void> {
    const stopped = new Promise<void>((resolve) => {
      this.worker.once('message', (m) => m === 'stopped' && resolve());
      this.worker.once('exit', () => resolve());
    });
    this.worker.postMessage('stop');
    await stopped;
    await this.worker.terminate();
  }
}
