import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { OAUTH_SCOPES } from '../../../config/oauth-scopes.js';
import { requireSignedInUser } from '../../../domain/oauth2/signed-in-user.js';
import { decideDeviceRequest, showDeviceRequest } from '../../../domain/oauth2/verify-device.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses, Success } from '../../schemas/common.js';

const Code = Type.String({ minLength: 1, maxLength: 32 });
const Scope = Type.Union(OAUTH_SCOPES.map((s) => Type.Literal(s)));
const VerifyQuery = Type.Object({ code: Code });
const DecideBody = Type.Object(
  {
    user_code: Code,
    action: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: OAUTH_SCOPES.length })),
  },
  { additionalProperties: false },
);
const DeviceRequest = data(
  Type.Object({
    userCode: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Scope),
    expiresAt: Type.String(),
  }),
);

/**
 * The studio's device page (docs/oauth2.md, "Device flow"): a signed-in user looks up a user code,
 * then approves or denies. Only a user's session does (anonymous 401, a token 403), checked before
 * the query and the body.
 */
export function deviceVerifyRoutes(app: FastifyInstance, svc: Services): void {
  const config = { permission: requireSignedInUser };
  app.get<{ Querystring: Static<typeof VerifyQuery> }>(
    '/auth/device/verify',
    { config, schema: { querystring: VerifyQuery, response: { 200: DeviceRequest, ...errorResponses } } },
    async (req) => ({ data: await showDeviceRequest(svc, req.principal, req.query.code) }),
  );

  app.post<{ Body: Static<typeof DecideBody> }>(
    '/auth/device/verify',
    { config, schema: { body: DecideBody, response: { 200: data(Success), ...errorResponses } } },
    async (req) => {
      await decideDeviceRequest(svc, req.principal, { userCode: req.body.user_code, action: req.body.action, scopes: req.body.scopes });
      return { data: { success: true as const } };
    },
  );
}
