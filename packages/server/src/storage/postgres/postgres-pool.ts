import type pg from 'pg';
import type { PostgresPool } from 'kysely';
import type { DatabaseConfig } from '../../config/types.js';
import { databaseUnavailable, isPgUnavailable } from '../database-unavailable.js';
import { statementName } from './named-statements.js';

/** The pool's connections now (read when metrics are scraped). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

type QueryFn = (...args: unknown[]) => unknown;

/** The client gives up this long after the server's `statement_timeout` should have answered. */
const CLIENT_MARGIN_MS = 1_000;

/**
 * The pg pool Kysely runs on, bounded in time (docs/architecture.md, "Storage model"):
 * - opening a connection, and waiting for a free one when all are busy, gives up after
 *   `connectTimeoutMs` (pg-pool's `connectionTimeoutMillis` covers both);
 * - PostgreSQL cancels a statement after `statementTimeoutMs`; the client stops waiting a second
 *   later, so a network that silently stops forwarding cannot hold a request;
 * - TCP keep-alive finds half-open connections while they idle.
 * A driver error that means "the database cannot answer now" becomes the 503 of
 * `databaseUnavailable` where it arises, so every floor above sees an AppError.
 */
export function openPostgresPool(driver: typeof pg, config: DatabaseConfig): { pool: PostgresPool; stats: () => PoolStats } {
  const pool = new driver.Pool({
    connectionString: config.url,
    max: 10,
    connectionTimeoutMillis: config.connectTimeoutMs,
    statement_timeout: config.statementTimeoutMs,
    query_timeout: config.statementTimeoutMs + CLIENT_MARGIN_MS,
    keepAlive: config.keepAlive,
    keepAliveInitialDelayMillis: config.keepAliveInitialDelayMs,
  });
  // A client that loses its connection (server restart, failover, terminated backend) emits
  // 'error': idle ones on the pool, checked-out ones on themselves. Without listeners that error
  // would end the process; with them, the query in flight fails (503) and the pool reconnects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    guardQueries(client);
  });
  return {
    pool: {
      connect: () =>
        pool.connect().catch((err: unknown) => {
          throw isPgUnavailable(err) ? databaseUnavailable(err) : err;
        }),
      end: () => pool.end(),
    },
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * Wraps `client.query` (Kysely calls the promise form):
 * - registered hot queries run as named prepared statements (see named-statements.ts); Kysely
 *   passes plain text and values, so the name is added here, where the driver sees the query;
 * - a query the client gave up on is still on the wire, and its answer (if one ever comes) would
 *   be read as the next query's: the client is ended, which also keeps pg-pool from lending it
 *   out again (a released client that is ending is removed from the pool);
 * - "the database cannot answer" errors become the 503.
 */
function guardQueries(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryFn;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof text === 'string' ? statementName(text) : undefined;
    const result = name ? query({ name, text, values }, callback) : query(text, values, callback);
    // The callback form and query objects (cursors) are passed through: Kysely uses neither here.
    if (callback !== undefined || !(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      if ((err as Error | undefined)?.message === 'Query read timeout') void client.end().catch(() => undefined);
      throw isPgUnavailable(err) ? databaseUnavailable(err) : err;
    });
  };
}
