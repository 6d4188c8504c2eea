import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { errors, isAppError, isOAuthErrorCode, STATUS, type AppError } from '../../../errors.js';
import { sendError } from '../../plugins/errors.js';

/**
 * The frame of the endpoints that speak OAuth rather than the API (`/auth/device`, `/auth/token`,
 * `/auth/revoke`; docs/oauth2.md, "Errors"): form-encoded bodies as RFC 6749 §3.2 and RFC 8628
 * §3.1 require (JSON too), `Cache-Control: no-store` on every answer (RFC 6749 §5.1), and errors
 * as `{error, error_description}` (RFC 6749 §5.2). The 501 of a disabled server keeps the API's
 * body, as the spec's "Authorization server" says.
 */
export function asRfcEndpoint(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const parsed = parseQuery(body.toString());
    // RFC 6749 §3.1: a parameter sent twice is an error, not a list.
    const repeated = Object.entries(parsed).find(([, v]) => Array.isArray(v));
    if (repeated) return done(errors.oauth('invalid_request', `Parameter ${repeated[0]} is repeated`), undefined);
    done(null, parsed);
  });
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
  });
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(err) && err.code === 'NOT_IMPLEMENTED') return sendError(reply, err);
    const rfc = toRfcError(err);
    if (rfc.status >= 500) request.log.error({ err, reqId: request.id }, 'request failed');
    reply.errorCode = rfc.error;
    if (rfc.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="vellum"');
    if (rfc.retryAfter !== undefined) reply.header('retry-after', String(rfc.retryAfter));
    return reply.status(rfc.status).type('application/json; charset=utf-8').send({ error: rfc.error, error_description: rfc.description });
  });
}

interface RfcError {
  status: number;
  error: string;
  description: string;
  retryAfter?: number;
}

/** Our errors in the RFC's words: refusals of the request are `invalid_request`, keeping their status. */
function toRfcError(err: FastifyError | AppError): RfcError {
  if (isAppError(err)) {
    if (isOAuthErrorCode(err.code)) return { status: err.status, error: err.code, description: err.message };
    if (err.status === 429 || err.status === 503)
      return { status: err.status, error: 'temporarily_unavailable', description: err.message, retryAfter: err.retryAfter };
    if (err.status < 500) return { status: err.status, error: 'invalid_request', description: err.message };
    return { status: 500, error: 'server_error', description: 'Internal server error' };
  }
  const status = err.statusCode ?? 500;
  if (err.validation) return { status: STATUS.invalid_request, error: 'invalid_request', description: err.message };
  if (status < 500) return { status, error: 'invalid_request', description: err.message };
  return { status: 500, error: 'server_error', description: 'Internal server error' };
}
