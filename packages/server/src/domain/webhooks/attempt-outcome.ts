import type { GuardedResult } from '../../net/guarded-request.js';

/**
 * What one delivery attempt's result means (docs/webhooks.md, "Retries"): 2xx delivered; 5xx,
 * 429, a timeout or a connection/DNS failure are worth retrying (the receiver may be back later);
 * any other answer, a redirect (never followed), a refused address or a bad URL will not change
 * by trying again, so the delivery is dead at once.
 */
export type AttemptOutcome =
  | { kind: 'delivered'; statusCode: number; durationMs: number }
  | { kind: 'retryable' | 'final'; statusCode: number | null; durationMs: number | null; error: string };

const MAX_ERROR = 300;

export function attemptOutcome(result: GuardedResult): AttemptOutcome {
  if (result.ok) {
    const { status, durationMs } = result;
    if (status >= 200 && status < 300) return { kind: 'delivered', statusCode: status, durationMs };
    const retryable = status >= 500 || status === 429 || status === 408;
    return { kind: retryable ? 'retryable' : 'final', statusCode: status, durationMs, error: `HTTP ${status}` };
  }
  switch (result.kind) {
    case 'timeout':
      return { kind: 'retryable', statusCode: null, durationMs: result.durationMs, error: `timed out after ${result.durationMs} ms` };
    case 'connection':
      return {
        kind: 'retryable',
        statusCode: null,
        durationMs: result.durationMs,
        error: short(`connection failed${result.code ? ` (${result.code})` : ''}: ${result.message}`),
      };
    case 'dns':
      return { kind: 'retryable', statusCode: null, durationMs: null, error: short(`DNS: ${result.message}`) };
    case 'redirect':
      return {
        kind: 'final',
        statusCode: result.status,
        durationMs: result.durationMs,
        error: `HTTP ${result.status} redirect, not followed`,
      };
    case 'refused-address':
      return {
        kind: 'final',
        statusCode: null,
        durationMs: null,
        error: `refused address ${result.address} (${result.addressClass}); see webhooks.allowPrivateNetworks`,
      };
    case 'bad-url':
      return { kind: 'final', statusCode: null, durationMs: null, error: short(`bad URL: ${result.message}`) };
  }
}

/**
 * When the next attempt is due after `attempts` attempts failed, or null when the schedule is
 * spent. ±20 % jitter spreads the retries of many deliveries that failed together (an endpoint
 * outage) so they do not all return at the same instant.
 */
export function nextAttemptAt(now: Date, attempts: number, scheduleMs: readonly number[], random: () => number = Math.random): Date | null {
  const delay = scheduleMs[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (0.8 + 0.4 * random())));
}

function short(text: string): string {
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}
