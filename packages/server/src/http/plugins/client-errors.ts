import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import { errors, type AppError } from '../../errors.js';
import { errorBody } from './errors.js';

type ParserError = ConnectionError & { reason?: string };

/** Node's own reasons for refusing bytes before a request exists, in the spec's codes. */
function toAppError(err: ParserError): AppError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return errors.headersTooLarge();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.requestTimeout();
  return errors.invalidInput(`Malformed HTTP request${err.reason ? `: ${err.reason}` : ''}`);
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (a byte that may not be in a
 * path or a header, a broken chunked body, headers over the limit) never reaches a route, so the
 * answer is written on the socket here, in the same `{error: {code, message}}` body as every
 * other. Expected refusals: logged at `info`, without a stack.
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (err: ParserError, socket: Socket): void => {
    // A reset connection has nobody left to answer (Node: the `clientError` event).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const error = toAppError(err);
    const reqId = randomUUID();
    log.info({ reqId, code: error.code, status: error.status, parserCode: err.code }, 'client error');
    // As Node does: nothing is written over a response that has already started on this socket.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const json = JSON.stringify(errorBody(error));
      socket.write(
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
          `X-Request-Id: ${reqId}\r\nConnection: close\r\n\r\n${json}`,
      );
    }
    socket.destroy(err);
  };
}
