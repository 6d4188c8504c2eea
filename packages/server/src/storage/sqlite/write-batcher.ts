import { sql, type Kysely } from 'kysely';
import type { Conn } from '../connection.js';
import type { Dialect } from '../dialect.js';
import type { Tables } from '../tables.js';
import { isDatabaseUnavailable } from '../database-unavailable.js';

interface Job {
  fn: (conn: Conn) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 32;

/**
 * Group commit for SQLite: its one writer connection runs transactions one after another anyway, and a
 * commit costs more than most writes, so the transactions that queue up while one batch runs are
 * run together in the next: one BEGIN … COMMIT, each write in its own SAVEPOINT. A write that
 * fails rolls back to its savepoint and fails alone; its neighbours go on. Every caller hears of
 * its result only after the COMMIT, so nothing is reported written before it is durable; if the
 * COMMIT itself fails, every write of the batch fails with it (none of them is stored); so do they
 * when one write finds the database busy (SQLITE_BUSY past `busy_timeout`).
 */
export class WriteBatcher {
  private readonly queue: Job[] = [];
  private running = false;
  /** Told the size of each batch that committed (metrics: `vellum_sqlite_write_batch_size`). */
  onCommit?: (size: number) => void;

  /** Writes waiting for the writer. */
  get queued(): number {
    return this.queue.length;
  }

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  run<T>(fn: (conn: Conn) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // Wait for the rest of this turn of the event loop: requests read in the same poll share the commit.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.runBatch(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.running = false;
    }
  }

  private async runBatch(batch: Job[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const conn = { db: trx, dialect: this.dialect };
        for (const job of batch) {
          await sql`savepoint vellum_write`.execute(trx);
          try {
            const value = await job.fn(conn);
            await sql`release vellum_write`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Busy or gone: every write after this one would wait as long and fail the same way,
            // so the batch is given up whole (rolled back, each caller told 503).
            if (isDatabaseUnavailable(error)) throw error;
            await sql`rollback to vellum_write`.execute(trx);
            await sql`release vellum_write`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (commitError) {
      batch.forEach((job, i) => job.reject(outcomes[i] && !outcomes[i].ok ? (outcomes[i] as { error: unknown }).error : commitError));
      return;
    }
    this.onCommit?.(batch.length);
    batch.forEach((job, i) => {
      const o = outcomes[i];
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
  }
}
