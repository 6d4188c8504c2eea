/**
 * The one error type of the service. Every failure that reaches a caller is an AppError with a
 * code from the spec's table; the HTTP error plugin turns it into `{error: {code, message, ...}}`.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'NOT_FOUND'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'CONFLICT'
  | 'INTERNAL_ERROR'
  | 'RATE_LIMITED'
  | 'INVALID_INPUT'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_IMPLEMENTED'
  | 'MFA_TOKEN_EXPIRED';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  validation: (details: ErrorDetail[], message = 'Validation failed') => new AppError('VALIDATION_ERROR', 422, message, details),
  invalidInput: (message: string, details?: ErrorDetail[]) => new AppError('INVALID_INPUT', 400, message, details),
  unauthorized: (message = 'Invalid or expired token') => new AppError('UNAUTHORIZED', 401, message),
  forbidden: (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', 403, message),
  notFound: (message = 'Not found') => new AppError('NOT_FOUND', 404, message),
  conflict: (message: string, details?: ErrorDetail[]) => new AppError('CONFLICT', 409, message, details),
  preconditionFailed: (message = 'The resource has changed (If-Match does not match)') => new AppError('PRECONDITION_FAILED', 412, message),
  payloadTooLarge: (message = 'Request body is too large') => new AppError('PAYLOAD_TOO_LARGE', 413, message),
  unsupportedMediaType: (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, message),
  /** A Range header that selects no byte of the file (RFC 9110 §15.5.17); the body says how big it is. */
  rangeNotSatisfiable: (size: number) => new AppError('INVALID_INPUT', 416, `The requested range is outside the file (${size} bytes)`),
  rateLimited: (retryAfter: number, message = 'Too many requests') => new AppError('RATE_LIMITED', 429, message, undefined, retryAfter),
  notImplemented: (message = 'Not implemented on this instance') => new AppError('NOT_IMPLEMENTED', 501, message),
  internal: (message = 'Internal server error') => new AppError('INTERNAL_ERROR', 500, message),
};

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
