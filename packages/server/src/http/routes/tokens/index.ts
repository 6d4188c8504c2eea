import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { errors } from '../../../errors.js';
import { requirePermission } from '../../../domain/access/policy.js';
import { createApiToken, listApiTokens, revokeApiToken } from '../../../domain/identity/api-tokens.js';
import type { Services } from '../../../domain/services.js';
import { requireSignInForRoutes } from '../../plugins/authenticate.js';
import { ApiToken, data, errorResponses, Meta, Success } from '../../schemas/common.js';

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    permissions: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
    expiresAt: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  { limit: Type.Optional(Type.String()), offset: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 128 }) });

export async function tokenRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  // Every token route needs a signed-in caller; the policy then checks tokens:read/write/delete.
  requireSignInForRoutes(app);
  app.post<{ Body: Static<typeof CreateBody> }>(
    '/tokens',
    {
      config: { permission: (p) => requirePermission(p, 'tokens:write') },
      schema: { body: CreateBody, response: { 201: data(Type.Object({ token: Type.String(), apiToken: ApiToken })), ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await createApiToken(svc, req.principal, req.body) }),
  );

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/tokens',
    { schema: { querystring: ListQuery, response: { 200: Type.Object({ data: Type.Array(ApiToken), meta: Meta }), ...errorResponses } } },
    async (req) => listApiTokens(svc, req.principal, req.query),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/tokens/:id',
    {
      config: { permission: (p) => requirePermission(p, 'tokens:delete') },
      schema: { params: IdParams, response: { 200: Success, ...errorResponses } },
    },
    async (req) => {
      await revokeApiToken(svc, req.principal, req.params.id);
      return { success: true as const };
    },
  );

  // Tokens are shown once and never changed: reading or editing one is not offered (spec: always 501).
  for (const method of ['GET', 'PUT'] as const) {
    app.route<{ Params: Static<typeof IdParams> }>({
      method,
      url: '/tokens/:id',
      config: { permission: (p) => requirePermission(p, method === 'GET' ? 'tokens:read' : 'tokens:write') },
      schema: { params: IdParams, response: errorResponses },
      handler: async () => {
        throw errors.notImplemented(`${method} /tokens/:id is not implemented: tokens are shown once and never edited`);
      },
    });
  }
}
