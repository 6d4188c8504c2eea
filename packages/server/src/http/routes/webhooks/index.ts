import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../domain/webhooks/manage-webhooks.js';
import { listWebhookDeliveries, retryWebhookDelivery } from '../../../domain/webhooks/webhook-deliveries.js';
import { testWebhook } from '../../../domain/webhooks/test-webhook.js';
import type { Services } from '../../../domain/services.js';
import { requirePermission } from '../../../domain/access/policy.js';
import { requireSignInForRoutes } from '../../plugins/authenticate.js';
import { data, errorResponses, Meta, Success } from '../../schemas/common.js';
import { Body, Delivery, DeliveryQuery, DeliveryParams, IdParams, ListQuery, Webhook } from './schemas.js';

const WithSecret = data(Type.Object({ secret: Type.String(), webhook: Webhook }));

/**
 * docs/api.md, "Webhooks". The policy checks webhooks:read/write/delete/test in the operations;
 * the writes ask it before their body is read too (`permission`, plugins/authenticate.ts).
 */
export async function webhookRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  requireSignInForRoutes(app);

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/webhooks',
    { schema: { querystring: ListQuery, response: { 200: Type.Object({ data: Type.Array(Webhook), meta: Meta }), ...errorResponses } } },
    async (req) => listWebhooks(svc, req.principal, req.query),
  );

  app.post<{ Body: Static<typeof Body> }>(
    '/webhooks',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:write') },
      schema: { body: Body, response: { 201: WithSecret, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await createWebhook(svc, req.principal, req.body) }),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/webhooks/:id',
    { schema: { params: IdParams, response: { 200: data(Webhook), ...errorResponses } } },
    async (req) => ({ data: await getWebhook(svc, req.principal, req.params.id) }),
  );

  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof Body> }>(
    '/webhooks/:id',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:write') },
      schema: { params: IdParams, body: Body, response: { 200: data(Webhook), ...errorResponses } },
    },
    async (req) => ({ data: await updateWebhook(svc, req.principal, req.params.id, req.body) }),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/webhooks/:id',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:delete') },
      schema: { params: IdParams, response: { 200: Success, ...errorResponses } },
    },
    async (req) => {
      await deleteWebhook(svc, req.principal, req.params.id);
      return { success: true as const };
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/webhooks/:id/rotate-secret',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:write') },
      schema: { params: IdParams, response: { 200: WithSecret, ...errorResponses } },
    },
    async (req) => ({ data: await rotateWebhookSecret(svc, req.principal, req.params.id) }),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeliveryQuery> }>(
    '/webhooks/:id/deliveries',
    {
      schema: {
        params: IdParams,
        querystring: DeliveryQuery,
        response: { 200: Type.Object({ data: Type.Array(Delivery), meta: Meta }), ...errorResponses },
      },
    },
    async (req) => listWebhookDeliveries(svc, req.principal, req.params.id, req.query),
  );

  app.post<{ Params: Static<typeof DeliveryParams> }>(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:write') },
      schema: { params: DeliveryParams, response: { 200: data(Delivery), ...errorResponses } },
    },
    async (req) => ({ data: await retryWebhookDelivery(svc, req.principal, req.params.id, req.params.deliveryId) }),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/webhooks/:id/test',
    {
      config: { permission: (p) => requirePermission(p, 'webhooks:test') },
      schema: { params: IdParams, response: { 200: data(Delivery), ...errorResponses } },
    },
    async (req) => ({ data: await testWebhook(svc, req.principal, req.params.id) }),
  );
}
