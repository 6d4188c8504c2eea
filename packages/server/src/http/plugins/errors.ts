import type { Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, isAppError, type AppError, type ErrorDetail } from '../../errors.js';
import { ErrorBody } from '../schemas/common.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The code of the error this reply carries, for the request's log line. */
    errorCode: string | null;
  }
}

interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** `/a/b/0` → `a.b.0`, with the offending property appended for required/additionalProperties. */
function ajvDetail(e: AjvError): ErrorDetail {
  const base = e.instancePath.split('/').filter(Boolean).join('.');
  const join = (name: unknown) => (base ? `${base}.${String(name)}` : String(name));
  if (e.keyword === 'required') return { field: join(e.params.missingProperty), message: 'is required' };
  if (e.keyword === 'additionalProperties') return { field: join(e.params.additionalProperty), message: 'unknown field' };
  return { field: base || '(root)', message: e.message ?? 'is invalid' };
}

/** Fastify's own client errors, mapped onto the spec's codes (never a 500 for bad input). */
function fromFastifyError(err: FastifyError): AppError | undefined {
  if (err.validation) {
    const details = (err.validation as unknown as AjvError[]).map(ajvDetail);
    return err.validationContext === 'body'
      ? errors.validation(details)
      : errors.invalidInput(
          `Invalid ${err.validationContext ?? 'request'}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
          details,
        );
  }
  const status = err.statusCode ?? 500;
  if (status >= 500) return undefined;
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.invalidInput('Unsupported Content-Type; send application/json');
  const byStatus: Record<number, (message: string) => AppError> = {
    401: errors.unauthorized,
    403: errors.forbidden,
    404: errors.notFound,
    413: () => errors.payloadTooLarge(),
    429: (message) => errors.rateLimited(1, message),
  };
  // Other 4xx from the framework are malformed requests (bad JSON, bad Content-Length, …).
  const make = byStatus[status] ?? errors.invalidInput;
  return make(err.message);
}

const fitsErrorBody = TypeCompiler.Compile(ErrorBody);

/** The spec's body for an error: `{error: {code, message, details?, retryAfter?}}`. */
export function errorBody(err: AppError): Static<typeof ErrorBody> {
  const body: Static<typeof ErrorBody> = { error: { code: err.code, message: err.message } };
  if (err.details) body.error.details = err.details;
  if (err.retryAfter !== undefined) body.error.retryAfter = err.retryAfter;
  return body;
}

/**
 * Sends an error in the spec's shape. A body that does not fit the error schema (a detail without
 * a field, say) is a bug: it is logged and a plain 500 goes out instead, so the response schema can
 * never refuse it and hand the reply to Fastify's own error body.
 */
export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  let error = err;
  let body = errorBody(err);
  if (!fitsErrorBody.Check(body)) {
    reply.log.error({ err, reqId: reply.request.id }, 'error body does not fit the error schema; sent as a 500');
    error = errors.internal(`Internal server error (request id ${reply.request.id})`);
    body = errorBody(error);
  }
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  reply.errorCode = error.code;
  return reply.status(error.status).type('application/json; charset=utf-8').send(body);
}

/**
 * Every error leaves as `{error: {code, message, details?, retryAfter?}}`; a 500 shows no internals.
 * Refusals are logged only by the request's `info` line (with the code); a server failure is an
 * `error` line with the stack under the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.decorateReply('errorCode', null);
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = isAppError(err) ? err : fromFastifyError(err);
    if (mapped?.refusal) return sendError(reply, mapped);
    request.log.error({ err, reqId: request.id }, 'request failed');
    return sendError(reply, mapped ?? errors.internal(`Internal server error (request id ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, errors.notFound(`No route ${request.method} ${request.url.split('?')[0]}`)));
}
