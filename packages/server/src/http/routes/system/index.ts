import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { checkReadiness } from '../../../domain/system/readiness.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses } from '../../schemas/common.js';
import { ApiIndex, apiIndex } from './api-index.js';

export async function systemRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const Status = data(Type.Object({ status: Type.String() }));
  // The API's root (`/api`): where the studio, this API's reference and the health checks are.
  // `/api/` answers the same, outside the OpenAPI document (one path per operation there).
  const summary = 'Links to the studio, the OpenAPI document, its reference pages and the health checks';
  const index = async () => ({ data: apiIndex(svc.config.server.basePath) });
  app.get('/', { prefixTrailingSlash: 'no-slash', schema: { summary, tags: ['system'], response: { 200: ApiIndex } } }, index);
  app.get('/', { prefixTrailingSlash: 'slash', schema: { hide: true } }, index);
  // Liveness: answers without touching the database.
  app.get('/health', { schema: { response: { 200: Status } } }, async () => ({ data: { status: 'ok' } }));
  // Readiness: the database and the file store answer (Redis is reported, not required); otherwise
  // 503 SERVICE_UNAVAILABLE with Retry-After, naming each dependency in `details`.
  const Check = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
  const Ready = data(
    Type.Object({
      status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
      checks: Type.Object({ database: Check, storage: Check, redis: Type.Optional(Check) }),
    }),
  );
  app.get('/ready', { schema: { response: { 200: Ready, ...errorResponses } } }, async () => ({ data: await checkReadiness(svc) }));
}
