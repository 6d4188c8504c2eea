import type { FastifyInstance } from 'fastify';
import { requireMetricsRead } from '../../../domain/access/policy.js';
import { safeEqual } from '../../../domain/identity/secrets.js';
import type { Services } from '../../../domain/services.js';
import { bearerCredential } from '../../bearer.js';
import { authenticate } from '../../plugins/authenticate.js';

/**
 * `GET /metrics` (docs/operations.md, "Metrics"): the Prometheus text format. A scraper sends
 * `metrics.token` as its bearer; anyone else needs `settings:read` (an admin's session, an API
 * token). Anonymous callers get 401. Not in the OpenAPI document: its answer is not JSON.
 * Registered only while `metrics.enabled`, so a switched-off instance answers 404.
 */
export async function metricsRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const { token } = svc.config.metrics;
  app.get('/metrics', { schema: { hide: true }, config: { ownBearer: true } }, async (request, reply) => {
    const bearer = bearerCredential(request.headers.authorization);
    // The scrape token is not a sign-in: it is compared here, in constant time, and opens this route only.
    if (!(token !== undefined && bearer !== undefined && safeEqual(bearer, token))) {
      request.principal = await authenticate(svc, request);
      requireMetricsRead(request.principal);
    }
    const rendered = await svc.metrics.render();
    return reply
      .header('cache-control', 'no-store')
      .type(rendered?.contentType ?? 'text/plain')
      .send(rendered?.body ?? '');
  });
}
