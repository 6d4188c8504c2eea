/**
 * The one error type of the service. Every failure that reaches a caller is an AppError with a
 * code from the spec's table; the HTTP error plugin turns it into `{error: {code, message, ...}}`.
 * Each code has exactly one HTTP status, looked up in `STATUS`; errors are made only by the
 * constructors in `errors` below (docs/api.md, "Errors").
 */
export const STATUS = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  MFA_TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  /** RFC 9110 §15.5.9: the request (its headers) did not arrive in time. */
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** RFC 9110 §15.5.17: a Range header that selects no byte of the file. */
  RANGE_NOT_SATISFIABLE: 416,
  HEADERS_TOO_LARGE: 431,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  /** The database (or another part the request needs) is unreachable or timed out; `Retry-After` says when to try again. */
  SERVICE_UNAVAILABLE: 503,
  /*
   * The error strings of the authorization server (RFC 6749 §5.2, RFC 8628 §3.5, RFC 7009 §2.2.1).
   * The token, device and revocation endpoints send them as `{error, error_description}`
   * (docs/oauth2.md, "Errors"); no other endpoint throws them.
   */
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  authorization_pending: 400,
  slow_down: 400,
  access_denied: 400,
  expired_token: 400,
  unsupported_token_type: 400,
} as const;

export type ErrorCode = keyof typeof STATUS;
/** The RFC error strings: lower case, unlike the API's codes. */
export type OAuthErrorCode = Extract<ErrorCode, Lowercase<ErrorCode>>;

export function isOAuthErrorCode(code: string): code is OAuthErrorCode {
  return code in STATUS && code === code.toLowerCase();
}

export interface ErrorDetail {
  field: string;
  message: string;
}

/** `refusal`: a 5xx the API means to give (a limit the node keeps), not a failure of the server. */
type AppErrorOptions = ErrorOptions & { refusal?: boolean };

export class AppError extends Error {
  readonly status: number;
  /**
   * The API means to give this answer: every 4xx and 501, and a 5xx made by a constructor that
   * says so (`atCapacity`). Refusals are logged without a stack (docs/api.md, "Errors"), so a
   * caller who repeats them cannot fill the log.
   */
  readonly refusal: boolean;

  /** Called only by `make` below: code outside this file uses the named constructors in `errors`. */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly retryAfter?: number,
    options?: AppErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = STATUS[code];
    this.refusal = this.status < 500 || this.status === STATUS.NOT_IMPLEMENTED || options?.refusal === true;
  }
}

function make(code: ErrorCode, message: string, details?: ErrorDetail[], retryAfter?: number, options?: AppErrorOptions): AppError {
  return new AppError(code, message, details, retryAfter, options);
}

export const errors = {
  validation: (details: ErrorDetail[], message = 'Validation failed') => make('VALIDATION_ERROR', message, details),
  invalidInput: (message: string, details?: ErrorDetail[]) => make('INVALID_INPUT', message, details),
  unauthorized: (message = 'Invalid or expired token') => make('UNAUTHORIZED', message),
  /** A spent, burned (5 wrong codes) or expired `mfaToken` / setup token: the login starts again. */
  mfaTokenExpired: (message = 'The MFA token is expired or used; sign in again') => make('MFA_TOKEN_EXPIRED', message),
  forbidden: (message = 'You do not have permission to do this') => make('FORBIDDEN', message),
  notFound: (message = 'Not found') => make('NOT_FOUND', message),
  conflict: (message: string, details?: ErrorDetail[]) => make('CONFLICT', message, details),
  preconditionFailed: (message = 'The resource has changed (If-Match does not match)') => make('PRECONDITION_FAILED', message),
  payloadTooLarge: (message = 'Request body is too large') => make('PAYLOAD_TOO_LARGE', message),
  unsupportedMediaType: (message: string) => make('UNSUPPORTED_MEDIA_TYPE', message),
  /** A Range header that selects no byte of the file (RFC 9110 §15.5.17); the body says how big it is. */
  rangeNotSatisfiable: (size: number) => make('RANGE_NOT_SATISFIABLE', `The requested range is outside the file (${size} bytes)`),
  headersTooLarge: (message = 'Request headers are too large') => make('HEADERS_TOO_LARGE', message),
  requestTimeout: (message = 'The request did not arrive in time') => make('REQUEST_TIMEOUT', message),
  rateLimited: (retryAfter: number, message = 'Too many requests') => make('RATE_LIMITED', message, undefined, retryAfter),
  notImplemented: (message = 'Not implemented on this instance') => make('NOT_IMPLEMENTED', message),
  internal: (message = 'Internal server error') => make('INTERNAL_ERROR', message),
  /** An authorization-server error (RFC 6749 §5.2): the OAuth endpoints answer it in the RFC's shape. */
  oauth: (code: OAuthErrorCode, description: string) => make(code, description),
  serviceUnavailable: (retryAfter: number, message = 'The database is not reachable; try again shortly', cause?: unknown) =>
    make('SERVICE_UNAVAILABLE', message, undefined, retryAfter, cause === undefined ? undefined : { cause }),
  /**
   * A limit this node keeps on purpose is reached (`realtime.maxStreams`): 503 with `Retry-After`,
   * a refusal like a 429 rather than a failure, so it is logged without a stack.
   */
  /** `GET /ready` (docs/operations.md, "Readiness"): each dependency that did not answer, named in `details`. */
  notReady: (details: ErrorDetail[], retryAfter = 5) =>
    make('SERVICE_UNAVAILABLE', `Not ready: ${details.map((d) => d.field).join(' and ')} not reachable`, details, retryAfter, {
      refusal: true,
    }),
  atCapacity: (retryAfter: number, message: string) => make('SERVICE_UNAVAILABLE', message, undefined, retryAfter, { refusal: true }),
};

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
