import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { mediaFile } from '../../../domain/media/open-media-file.js';
import { asksForTransform } from '../../../domain/media/transform-params.js';
import { transformedMediaFile } from '../../../domain/media/transform-media.js';
import type { Services } from '../../../domain/services.js';
import { errors } from '../../../errors.js';
import { parseByteRange } from './byte-range.js';
import { FileParams } from './schemas.js';

/**
 * `GET|HEAD /media/files/:key`: the stored bytes with long-lived caching (keys never change
 * content), Range requests, and active types (SVG, HTML, XML, unknown) sent as attachments under
 * a sandbox CSP so they can never run as a page of this origin. With transform parameters
 * (`w`, `h`, `fit`, `format`, `q`, `preset`, `sig`: docs/media.md, "Image transforms") the
 * transform's stored file is served the same way, rendered first if it is not stored yet.
 */
export async function mediaFileRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const scope = svc.config.media.publicRead ? 'public' : 'private';
  app.get<{ Params: Static<typeof FileParams>; Querystring: Record<string, unknown> }>(
    '/media/files/:key',
    { schema: { params: FileParams }, exposeHeadRoute: true },
    async (req, reply) => {
      let file = mediaFile(svc, req.principal, req.params.key);
      // Kept for good, unless it is a crop around a focal point that may move: then for a day,
      // revalidated by its ETag, which names the point.
      let caching = `${scope}, max-age=31536000, immutable`;
      if (asksForTransform(req.query)) {
        const transformed = await transformedMediaFile(svc, req.principal, req.params.key, req.query, req.headers);
        file = transformed.file;
        if (transformed.variesByAccept) reply.header('vary', 'Accept');
        if (!transformed.immutable) caching = `${scope}, max-age=86400`;
      }
      const small = await file.small();
      const stat = small ? { size: small.length } : await file.stat();
      if (!stat) throw errors.notFound('File not found');

      reply
        .header('content-type', file.contentType)
        .header('etag', file.etag)
        .header('cache-control', caching)
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-security-policy',
          file.active ? "sandbox; default-src 'none'" : "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
        );
      if (file.active) reply.header('content-disposition', `attachment; filename="${req.params.key}"`);

      const inm = req.headers['if-none-match'];
      if (inm !== undefined && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag || t.trim() === '*')) {
        return reply.status(304).send();
      }
      // If-Range with another validator: the client's partial copy is stale, so it gets the whole file.
      const ifRange = req.headers['if-range'];
      const range = ifRange !== undefined && ifRange !== file.etag ? undefined : parseByteRange(req.headers.range, stat.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${stat.size}`);
        throw errors.rangeNotSatisfiable(stat.size);
      }
      const length = range ? range.end - range.start + 1 : stat.size;
      reply.header('content-length', String(length));
      if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
      // HEAD: an empty stream keeps the Content-Length set above (Fastify's HEAD handling drains streams, and would read the whole file).
      if (req.method === 'HEAD') return reply.send(Readable.from([]));
      if (small) return reply.send(range ? small.subarray(range.start, range.end + 1) : small);
      const object = await file.open(range);
      if (!object) throw errors.notFound('File not found');
      return reply.send(object.body);
    },
  );
}
