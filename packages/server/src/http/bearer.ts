import { errors } from '../errors.js';

const BEARER = /^Bearer +([\x21-\x7e]+)$/i;

/**
 * The credential an `Authorization` header carries (RFC 6750 §2.1, `Bearer <token>`); undefined
 * when there is none. A header that is present but malformed is a 401 everywhere, so clients
 * learn to refresh.
 */
export function bearerCredential(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization === '') return undefined;
  const m = BEARER.exec(authorization);
  if (!m) throw errors.unauthorized('Malformed Authorization header; expected "Bearer <token>"');
  return m[1];
}
