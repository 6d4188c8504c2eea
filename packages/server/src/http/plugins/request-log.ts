import type { FastifyInstance } from 'fastify';

/**
 * One log line per request (Fastify's default is two), with the request id every error log carries
 * too, and the error code when the answer is an error.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
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
