/** The error body of every API failure (docs/api.md, "Errors"). */
export interface VellumError {
  code: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
  retryAfter?: number;
}

/**
 * Every refusal the client meets: the API's `{error: {code, message, details?, retryAfter?}}`,
 * and the OAuth endpoints' flat `{error, error_description}` (RFC 6749 §5.2, RFC 8628 §3.5),
 * whose `error` string becomes `code` (`authorization_pending`, `slow_down`, `invalid_grant`, …).
 * `message` reads `<status> <code>: <the server's message>`; `error.message` is the server's alone.
 */
export class VellumApiError extends Error {
  readonly code: string;
  readonly details?: Array<{ field: string; message: string }>;
  /** Seconds to wait before trying again: the body's `retryAfter`, else the `Retry-After` header. */
  readonly retryAfter?: number;

  constructor(
    readonly status: number,
    readonly error: VellumError,
  ) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = 'VellumApiError';
    this.code = error.code;
    this.details = error.details;
    this.retryAfter = error.retryAfter;
  }
}

/** The failure a non-2xx response stands for; an error page that is not JSON (a proxy's, say) keeps its status. */
export function apiErrorFrom(res: Response, text: string): VellumApiError {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const retryAfter = retryAfterHeader(res.headers.get('retry-after'));
  const fallback = res.statusText || `HTTP ${res.status}`;
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const e = error as VellumError;
    return new VellumApiError(res.status, {
      code: typeof e.code === 'string' ? e.code : 'UNKNOWN',
      message: typeof e.message === 'string' ? e.message : fallback,
      ...(Array.isArray(e.details) ? { details: e.details } : {}),
      ...(typeof e.retryAfter === 'number' ? { retryAfter: e.retryAfter } : retryAfter !== undefined ? { retryAfter } : {}),
    });
  }
  if (typeof error === 'string') {
    const description = (body as { error_description?: unknown }).error_description;
    return new VellumApiError(res.status, {
      code: error,
      message: typeof description === 'string' ? description : error,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
  }
  return new VellumApiError(res.status, { code: 'UNKNOWN', message: fallback, ...(retryAfter !== undefined ? { retryAfter } : {}) });
}

/** `Retry-After` is delay-seconds or an HTTP-date (RFC 9110 §10.2.3); either becomes whole seconds from now. */
function retryAfterHeader(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
