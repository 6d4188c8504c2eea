import { VellumApiError } from '@vellum/client';
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
  const e = err as Error & { cause?: { message?: string } };
  const line = e.cause?.message ? `${e.message} (${e.cause.message})` : (e.message ?? String(err));
  return { line: oneLine(line), exitCode: EXIT.failure };
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
