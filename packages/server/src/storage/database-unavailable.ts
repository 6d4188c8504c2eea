import { errors, isAppError, type AppError } from '../errors.js';

/** `Retry-After` (seconds) of a 503 for a database that is unreachable, silent or busy (docs/api.md, "Errors"). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Socket failures: the server is down, restarting, or the network between us is broken. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs (PostgreSQL manual, appendix A): class 08 connection exceptions; 57014
 * query_canceled, which Vellum only ever meets as `statement_timeout` firing; 57P01–57P03
 * admin/crash shutdown and "cannot connect now" (starting up, recovering); 53300 too many connections.
 */
const PG_UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57014|57P0[123]|53300)$/;

/** What pg and pg-pool say when a connection timed out, died under a query, or was ended after one of those. */
const PG_UNAVAILABLE_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout|timeout expired|Client has encountered a connection error|Client was closed and is not queryable)/;

function codeAndMessage(err: unknown): { code: unknown; message: unknown } {
  const e = err as { code?: unknown; message?: unknown } | null | undefined;
  return { code: e?.code, message: e?.message };
}

/** The pg driver's error means the database cannot answer now (as opposed to a bad query or a bug). */
export function isPgUnavailable(err: unknown): boolean {
  if (isAppError(err)) return false;
  const { code, message } = codeAndMessage(err);
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE_STATES.test(code))) return true;
  return typeof message === 'string' && PG_UNAVAILABLE_MESSAGES.test(message);
}

/** better-sqlite3's error means another connection held the lock for longer than `busy_timeout`. */
export function isSqliteBusy(err: unknown): boolean {
  if (isAppError(err)) return false;
  const { code } = codeAndMessage(err);
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** The 503 a request gets for `cause`; the driver's error stays as the cause, for the log only. */
export function databaseUnavailable(cause: unknown, message?: string): AppError {
  return errors.serviceUnavailable(DATABASE_RETRY_AFTER_SECONDS, message, cause);
}

/** The error is the 503 made above: waiting on the database again now would fail the same way. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return isAppError(err) && err.code === 'SERVICE_UNAVAILABLE';
}
