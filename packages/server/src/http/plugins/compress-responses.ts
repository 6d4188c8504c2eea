import type { FastifyInstance, FastifyReply } from 'fastify';
import type { VellumConfig } from '../../config/types.js';
import { compressBody, isCompressible } from '../compression/compress-body.js';
import { negotiateEncoding } from '../compression/negotiate-encoding.js';
import { noteSentBody } from '../compression/sent-body.js';

/**
 * Response compression (docs/api.md, "Compression"): a body of a compressible type of at least
 * `server.compression.minBytes` leaves in the coding the client accepts best (`br`, then `gzip`),
 * with `Vary: Accept-Encoding`; a request without `Accept-Encoding` is not looked at further. The ETag stays the same: it names the document revision, which an
 * `If-Match` compares whatever coding the read came in (docs/decisions/compression.md). Bodies
 * already coded (the response cache's, the studio's precompressed files), streams, partial
 * content, answers whose route set their length (media files) and `Cache-Control: no-transform`
 * answers are left alone.
 */
export function registerResponseCompression(app: FastifyInstance, config: VellumConfig['server']['compression']): void {
  if (!config.enabled) return;
  const { minBytes } = config;
  // A callback hook, not an async one: every answer passes here, most of them untouched.
  app.addHook('onSend', (request, reply, payload, done) => {
    // A request that names no coding gets the body as it is, and costs one look (docs/decisions/compression.md).
    const accepted = request.headers['accept-encoding'];
    if (accepted === undefined) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (payload.length < minBytes || reply.statusCode === 206 || reply.hasHeader('content-encoding')) return done(null, payload);
    // A length the route declared (media files, served byte-exact with ranges) stays true.
    if (reply.hasHeader('content-length')) return done(null, payload);
    if (!isCompressible(reply.getHeader('content-type') as string | undefined)) return done(null, payload);
    const cacheControl = reply.getHeader('cache-control');
    if (typeof cacheControl === 'string' && cacheControl.includes('no-transform')) return done(null, payload);
    varyOnEncoding(reply);
    const coding = negotiateEncoding(accepted);
    if (!coding) return done(null, payload);
    const encoded = compressBody(payload, coding);
    noteSentBody(request, { plain: payload, coding, encoded });
    reply.header('content-encoding', coding);
    done(null, encoded);
  });
}

/** Adds `Accept-Encoding` to `Vary`, keeping what other plugins put there (CORS's `Origin`). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'Accept-Encoding');
    return;
  }
  if (vary === 'Accept-Encoding') return;
  const list = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
  if (/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(list)) return;
  reply.header('vary', list ? `${list}, Accept-Encoding` : 'Accept-Encoding');
}
