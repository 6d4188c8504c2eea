import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { SqliteStatements, sqliteGuard, whenUnlocked } from './sqlite-statements.js';
import type { LogRestart } from './log-restart.js';

/**
 * Kysely's SQLite dialect over two connections to one file: a writer and a reader.
 *
 * Kysely's own SQLite driver runs every query through one connection under one mutex, so while
 * the write batcher holds a transaction open (write-batcher.ts), every read waits for its COMMIT.
 * In WAL mode a second connection reads the last committed state beside the writer, so:
 * - a transaction runs wholly on the writer and holds the writer for its whole life;
 * - outside a transaction, a read-only statement runs on the reader at once;
 * - any other statement outside a transaction takes the writer for that one statement, so it
 *   waits for an open transaction to end instead of landing inside it (and in its rollback).
 *
 * Without a reader (`:memory:`, which no second connection can share) the writer is held for
 * each acquired connection, as Kysely's driver does.
 *
 * Transactions begin IMMEDIATE: the write lock is taken at BEGIN, where a lock held by another
 * connection is waited for on timers for up to `busyTimeoutMs` (`whenUnlocked`), so no statement
 * inside the transaction waits for it later, asleep on the event loop.
 */
export function sqliteKyselyDialect(
  writer: BetterSqlite3.Database,
  reader: BetterSqlite3.Database | undefined,
  busyTimeoutMs: number,
  logRestart?: LogRestart,
): Dialect {
  return {
    createDriver: () => new SqliteDriver(writer, reader, busyTimeoutMs, logRestart),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  };
}

/** First come, first served; held across awaits, which the connection itself cannot tell. */
class Mutex {
  private readonly waiting: Array<() => void> = [];
  private held = false;

  async lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    // The lock passes straight to the next waiter, so no newcomer can slip in between.
    if (next) next();
    else this.held = false;
  }
}

class SqliteDriver implements Driver {
  private readonly writer: SqliteStatements;
  private readonly reader?: SqliteStatements;
  private readonly writerLock = new Mutex();

  constructor(
    writer: BetterSqlite3.Database,
    reader: BetterSqlite3.Database | undefined,
    private readonly busyTimeoutMs: number,
    private readonly logRestart?: LogRestart,
  ) {
    this.writer = new SqliteStatements(writer);
    if (reader) this.reader = new SqliteStatements(reader);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = new RoutedConnection(this.writer, this.reader, this.writerLock, this.busyTimeoutMs);
    if (!this.reader) await connection.holdWriter();
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).holdWriter();
    // Between two transactions, with the writer held: the one moment the log can start over.
    await this.logRestart?.beforeTransaction();
    const begin = this.writer.prepare('begin immediate');
    await whenUnlocked(() => begin.run(), this.busyTimeoutMs);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  /** Kysely releases every connection it acquired, also when BEGIN, COMMIT or ROLLBACK failed. */
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).releaseWriter();
  }

  async destroy(): Promise<void> {
    this.reader?.connection.close();
    this.writer.connection.close();
  }
}

/** One acquisition of the driver: it holds the writer only while in a transaction (or with no reader). */
class RoutedConnection implements DatabaseConnection {
  private holdsWriter = false;

  constructor(
    private readonly writer: SqliteStatements,
    private readonly reader: SqliteStatements | undefined,
    private readonly writerLock: Mutex,
    private readonly busyTimeoutMs: number,
  ) {}

  async holdWriter(): Promise<void> {
    if (this.holdsWriter) return;
    await this.writerLock.lock();
    this.holdsWriter = true;
  }

  releaseWriter(): void {
    if (!this.holdsWriter) return;
    this.holdsWriter = false;
    this.writerLock.unlock();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const onReader = this.readOnly(query.sql);
    if (onReader) return run<R>(onReader, query);
    if (this.holdsWriter) return run<R>(this.writer.prepare(query.sql), query);
    await this.writerLock.lock();
    try {
      const stmt = this.writer.prepare(query.sql);
      // Alone, the statement takes the write lock itself: waited for as a BEGIN's is.
      return await whenUnlocked(() => run<R>(stmt, query, false), this.busyTimeoutMs);
    } finally {
      this.writerLock.unlock();
    }
  }

  /**
   * Streams a select. Outside a transaction the rows are read whole from the reader, as an open
   * iterator would keep that connection, shared by every request, busy until the stream ends.
   */
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams select queries only');
    const onReader = this.readOnly(query.sql);
    if (onReader) {
      for (const row of sqliteGuard(() => onReader.all(query.parameters as unknown[]) as R[])) yield { rows: [row] };
      return;
    }
    const held = this.holdsWriter;
    if (!held) await this.holdWriter();
    try {
      const rows = sqliteGuard(() => this.writer.prepare(query.sql).iterate(query.parameters as unknown[]));
      while (true) {
        const next = sqliteGuard(() => rows.next());
        if (next.done) return;
        yield { rows: [next.value as R] };
      }
    } finally {
      if (!held) this.releaseWriter();
    }
  }

  /**
   * The reader's statement for `sqlText` when it can run there: outside a transaction, a statement
   * that reads rows and writes nothing. `readonly`, not `reader`: an INSERT … RETURNING returns
   * rows too. BEGIN, SAVEPOINT and the like count as read-only to SQLite but return no rows, so
   * they stay on the writer. A text the reader cannot prepare (say, a table a transaction has
   * created and not committed yet) goes to the writer, which answers for it.
   */
  private readOnly(sqlText: string): BetterSqlite3.Statement | undefined {
    if (this.holdsWriter || !this.reader) return undefined;
    let stmt: BetterSqlite3.Statement;
    try {
      stmt = this.reader.prepare(sqlText);
    } catch {
      return undefined;
    }
    return stmt.readonly && stmt.reader ? stmt : undefined;
  }
}

/** `guard`: driver errors become the 503 of `sqliteGuard` here (false: the caller's `whenUnlocked` does it). */
function run<R>(stmt: BetterSqlite3.Statement, query: CompiledQuery, guard = true): QueryResult<R> {
  const params = query.parameters as unknown[];
  const call = <T>(fn: () => T): T => (guard ? sqliteGuard(fn) : fn());
  if (stmt.reader) return { rows: call(() => stmt.all(params)) as R[] };
  const { changes, lastInsertRowid } = call(() => stmt.run(params));
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
