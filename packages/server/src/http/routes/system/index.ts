import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { checkReadiness } from '../../../domain/system/readiness.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses } from '../../schemas/common.js';

export async function systemRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const Status = data(Type.Object({ status: Type.String() }));
  // Liveness: answers without touching the database.
  app.get('/health', { schema: { response: { 200: Status } } }, async () => ({ data: { status: 'ok' } }));
  // Readiness: the database answers; otherwise 503 SERVICE_UNAVAILABLE with Retry-After.
  app.get('/ready', { schema: { response: { 200: Status, ...errorResponses } } }, async () => {
    await checkReadiness(svc);
    return { data: { status: 'ok' } };
  });
}
