import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's code, run as a CommonJS script (`eval`, as in sqlite-read-worker.ts): a connection
 * of its own that copies the write-ahead log into the database file every `everyMs`, with a
 * PASSIVE checkpoint (it never waits for the writer or a reader, and neither waits for it).
 */
const CHECKPOINTER_SOURCE = `
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
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
`;

/** How often the log is copied into the database file: the log holds at most this long of writes. */
const CHECKPOINT_EVERY_MS = 200;

/**
 * Checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that finds
 * the log past 1 000 pages: that commit, on the main thread, copies megabytes into the database
 * file and syncs it (tens of milliseconds at a million documents, while every request waits). The
 * writer's automatic checkpoint is switched off and this thread does the copying instead, beside
 * the writer and the readers (WAL allows it; docs/architecture.md, "Reads on SQLite").
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;

  /** `onFailure`: the thread died (the writer then checkpoints for itself again, so the log cannot grow without end). */
  constructor(path: string, onFailure: (err: Error) => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(CHECKPOINTER_SOURCE, { eval: true, workerData: { driver, path, everyMs: CHECKPOINT_EVERY_MS } });
    this.worker.unref();
    this.worker.once('error', onFailure);
  }

  /** A last checkpoint, then the thread ends. */
  async close(): Promise<void> {
    const stopped = new Promise<void>((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.once('exit', () => resolve());
    });
    this.worker.postMessage('stop');
    await stopped;
    await this.worker.terminate();
  }
}
