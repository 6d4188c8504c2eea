import type { FastifyInstance } from 'fastify';

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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body.length === 0 ? done(null, undefined) : parseJson(req, body.toString(), done),
  );
  // Content sent with a DELETE has no defined meaning (RFC 9110 §9.3.5): it is never read, so the
  // caller's permission decides the answer whatever the body holds.
  app.addHttpMethod('DELETE', { hasBody: false, overrideExisting: true });
}
