import { VellumApiError } from '@vellum/client/node';
import { CliError, EXIT } from './command.js';

/** Network error codes that mean "nothing answered at that address". */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ETIMEDOUT']);

/** The system error code under a failed fetch (`TypeError: fetch failed` → cause, or its first inner error). */
export function networkCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code;
}

/**
 * `fetch` that turns "nothing answered" into a CliError naming the URL (exit 69), so every
 * command reports an unreachable server the same way.
 */
export function reachingFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (err) {
      const code = networkCode(err);
      if (code && UNREACHABLE.has(code)) throw new CliError(`cannot reach ${baseUrl} (${code})`, EXIT.unavailable);
      throw err;
    }
  };
}

/**
 * Any failure as one line and an exit code: API errors keep the spec's status, code and message
 * (`403 FORBIDDEN: Missing permission …`) with their field details; 401/403 exit 77 (EX_NOPERM),
 * other API errors 1.
 */
export function describeFailure(err: unknown): { line: string; exitCode: number } {
  if (err instanceof CliError) return { line: oneLine(err.message), exitCode: err.exitCode };
  if (err instanceof VellumApiError) {
    const details = err.error.details?.map((d) => `${d.field}: ${d.message}`).join('; ');
    const line = details ? `${err.message} (${details})` : err.message;
    return { line: oneLine(line), exitCode: err.status === 401 || err.status === 403 ? EXIT.noPerm : EXIT.failure };
  }
  // The server's own errors, from the commands that work on the database (`vellum user`).
  const app = err as {
    name?: string;
    status?: unknown;
    code?: unknown;
    message: string;
    details?: Array<{ field: string; message: string }>;
  };
  if (app?.name === 'AppError' && typeof app.status === 'number' && typeof app.code === 'string') {
    const details = app.details?.map((d) => `${d.field}: ${d.message}`).join('; ');
    return { line: oneLine(`${app.status} ${app.code}: ${app.message}${details ? ` (${details})` : ''}`), exitCode: EXIT.failure };
  }
  // The innermost cause names what failed (`connect ECONNREFUSED 127.0.0.1:5432`).
  let root = err as Error;
  while (root?.cause instanceof Error) root = root.cause;
  const message = (err as Error)?.message ?? String(err);
  const line = root !== err && root.message ? `${message} (${root.message})` : message;
  return { line: oneLine(line), exitCode: EXIT.failure };
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
