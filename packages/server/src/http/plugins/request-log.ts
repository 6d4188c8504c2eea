import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics/metrics.js';

/**
 * One log line per request (Fastify's default is two), with the request id every error log carries
 * too, and the error code when the answer is an error; and the request counted in the metrics by
 * its route *template* (`/api/documents/:type/:id`), so ids never become label values.
 */
export function registerRequestLog(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        code: reply.errorCode ?? undefined,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}
