import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';

/**
 * How request bodies are read (docs/api.md, "Errors"). JSON is the only body type of the API
 * (multipart joins for media), so a text/plain body is a wrong content type. Clients that always
 * send `content-type: application/json` send it on bodiless requests too: an empty body is no
 * body, and a route that needs one answers as it does without one.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  const json = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) =>
    body.length === 0 ? done(null, undefined) : parseJson(req, body.toString(), done);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  // RFC 7396's own media type for PATCH bodies: the same JSON.
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, json);
  // Content sent with a DELETE has no defined meaning (RFC 9110 §9.3.5): it is never read, so the
  // caller's permission decides the answer whatever the body holds.
  app.addHttpMethod('DELETE', { hasBody: false, overrideExisting: true });
  // A body is read as it arrives: no content coding is applied to it (RFC 9110 §8.4.1), so one
  // sent compressed (or merely labelled so) is refused before it is read, JSON, form and multipart
  // alike, rather than parsed as if it were plain. `Accept-Encoding` says what would have been
  // accepted (RFC 9110 §15.5.16, §12.5.3). A request without the header costs one header lookup.
  app.addHook('preParsing', (request, reply, payload, done) => {
    const coding = request.headers['content-encoding'];
    if (coding === undefined || isIdentity(coding) || !hasBody(request)) return done(null, payload);
    reply.header('accept-encoding', 'identity');
    done(errors.unsupportedMediaType(`Content-Encoding ${JSON.stringify(coding)} is not accepted: send the body uncompressed`));
  });
}

/** `identity` (or nothing) in every listed coding: the body is as sent. */
function isIdentity(coding: string): boolean {
  return coding.split(',').every((c) => {
    const name = c.trim().toLowerCase();
    return name === '' || name === 'identity';
  });
}

/** The methods whose bodies the API reads (a GET's or a DELETE's never is). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** RFC 9112 §6.3: a body has a Transfer-Encoding or a non-zero Content-Length. */
function hasBody(request: FastifyRequest): boolean {
  if (!BODY_METHODS.has(request.method)) return false;
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
