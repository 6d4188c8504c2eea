import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { databaseUnavailable, isSqliteBusy } from '../database-unavailable.js';
import { MAINTENANCE_SOURCE } from './sqlite-maintenance-source.js';
import { FUNCTIONS_SOURCE } from './sqlite-functions.js';

/**
 * The worker's code, run as a CommonJS script (`eval`): one read-only connection of its own on the
 * database file, a statement cache by SQL text, and one message per query; then the database's
 * upkeep, which waits on this thread until told to start (sqlite-maintenance.ts). Kept as text so
 * the same code runs from the compiled package and from the TypeScript sources under test.
 */
const WORKER_SOURCE = `
{
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('cache_size = ' + workerData.cacheSize);
${FUNCTIONS_SOURCE}
const statements = new Map();
parentPort.on('message', (m) => {
  if (typeof m !== 'object' || m === null || typeof m.sql !== 'string') return; // the upkeep's
  const { id, sql, params } = m;
  try {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      if (statements.size >= 500) statements.delete(statements.keys().next().value);
      statements.set(sql, stmt);
    }
    parentPort.postMessage({ id, rows: stmt.all(params) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
}
${MAINTENANCE_SOURCE}`;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (err: unknown) => void;
}

/**
 * SQLite reads that may take long (a filter no index serves, a search, a bounded count, a deep
 * offset) run here, on a thread of their own with its own read-only connection, so they never
 * hold the event loop: better-sqlite3 runs a query to its end on the calling thread. WAL lets
 * this connection read the last committed state beside the writer. Reads that are fast by
 * construction (an index range of a page) stay on the main thread, where they cost no hop.
 */
export class SqliteReadWorker {
  /** The thread, which the database's upkeep shares (sqlite-maintenance.ts). */
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** Why the worker is gone, once it is: later reads fail at once instead of waiting forever. */
  private stopped: Error | undefined;

  /** `cacheSize`: the connection's `cache_size` pragma (negative: KiB). */
  constructor(path: string, busyTimeoutMs: number, cacheSize: number) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, busyTimeoutMs, cacheSize } });
    // An idle worker must not keep the process alive; requests in flight hold their own promises.
    this.worker.unref();
    // The upkeep's answers ('stopped', {steps}) carry no id: no read is waiting for them.
    this.worker.on('message', (m: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!m.error) return p.resolve(m.rows ?? []);
      const err = Object.assign(new Error(m.error.message), { code: m.error.code });
      p.reject(isSqliteBusy(err) ? databaseUnavailable(err, 'The database is busy; try again shortly') : err);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`the SQLite read worker stopped (exit code ${code})`)));
  }

  /** The rows of one read-only statement. */
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.next++;
    return new Promise<T[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      this.worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private failAll(err: Error): void {
    this.stopped ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
