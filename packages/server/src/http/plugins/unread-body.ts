import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * A body this size or smaller that is still unread when the answer goes out is read and dropped,
 * so the connection serves the client's next request; a larger one, or one of unknown length
 * (chunked), closes the connection instead: reading it would cost more than a new connection.
 */
export const DRAIN_LIMIT = 1024 * 1024;
/** How long the rest of a drained body may take to arrive after the answer before the connection is closed. */
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Answers given before the body is read (docs/api.md, "Errors"): a 401/403 on an upload, a file
 * over `media.maxFileSize`, a bad multipart part, a body over `server.bodyLimit`, a refused
 * `Content-Encoding`. HTTP/1.1 reads requests one after another on a connection, so the next
 * request is parsed only once this body has been read to its end (RFC 9112 §6.3, §9.3). Node
 * drops an unread body itself only when nothing ever started reading it; the multipart parser
 * stops (unpiping the request, which pauses it) when a part is refused or the consumer stops,
 * and the rest of the body then sat in front of the client's next request until the keep-alive
 * timeout. So every answer leaves with the body settled: small ones are read and dropped, keeping
 * the connection; larger ones get `Connection: close` (RFC 9112 §9.6), and Node closes the
 * connection once the answer is written.
 *
 * A request read to its end (every parsed JSON body) costs one property read, one without a body
 * (a GET) three.
 */
export function registerUnreadBodyHandling(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (bodyLeftUnread(request.raw)) settleUnreadBody(request.raw, reply);
    done(null, payload);
  });
}

function bodyLeftUnread(raw: IncomingMessage): boolean {
  if (raw.readableEnded) return false;
  const { headers } = raw;
  // No body at all (RFC 9112 §6.3): nothing to read.
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0'))
    return false;
  // Still arriving, or received but left in the stream's buffer (the socket stays paused until it is read).
  return !raw.complete || raw.readableLength > 0;
}

function settleUnreadBody(raw: IncomingMessage, reply: FastifyReply): void {
  const declared = Number(raw.headers['content-length']);
  // NaN (chunked) is never within the limit.
  if (!raw.complete && !(declared <= DRAIN_LIMIT)) reply.header('connection', 'close');
  // Whatever was reading the body (the multipart parser) has given up on it: it is dropped from
  // here on, as Node's own `IncomingMessage._dump` drops a body nobody read.
  raw.unpipe();
  raw.removeAllListeners('data');
  raw.resume();
  // A client that stops sending mid-body does not hold the connection past the bound.
  reply.raw.once('finish', () => {
    if (raw.readableEnded || raw.destroyed) return;
    // Destroying a request that has not fully arrived destroys its connection.
    const timer = setTimeout(() => raw.destroy(), DRAIN_TIMEOUT_MS);
    timer.unref();
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
  });
}
