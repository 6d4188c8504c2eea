import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listOwnGrants, revokeOwnGrant } from '../../../domain/oauth2/manage-grants.js';
import { requireSignedInUser } from '../../../domain/oauth2/signed-in-user.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses, Nullable, Success } from '../../schemas/common.js';

const Grant = Type.Object({
  id: Type.String(),
  client: Type.Object({ id: Type.String(), name: Type.String() }),
  scopes: Type.Array(Type.String()),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** A user's own grants (docs/oauth2.md, "Grants"): list them, revoke one; a user's session only (anonymous 401, a token 403). */
export function grantRoutes(app: FastifyInstance, svc: Services): void {
  const config = { permission: requireSignedInUser };
  app.get('/auth/grants', { config, schema: { response: { 200: data(Type.Array(Grant)), ...errorResponses } } }, async (req) => ({
    data: await listOwnGrants(svc, req.principal),
  }));

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/auth/grants/:id',
    { config, schema: { params: IdParams, response: { 200: data(Success), ...errorResponses } } },
    async (req) => {
      await revokeOwnGrant(svc, req.principal, req.params.id);
      return { data: { success: true as const } };
    },
  );
}
