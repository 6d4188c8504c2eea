import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { startDeviceAuthorization } from '../../../domain/oauth2/start-device.js';
import type { Services } from '../../../domain/services.js';

/** Form fields as strings; unknown parameters are ignored (RFC 8628 §3.1). */
const DeviceBody = Type.Record(Type.String(), Type.String());

/** `POST /auth/device` (RFC 8628 §3.1): a device asks to be authorized; the client may authenticate with HTTP Basic, so the bearer is the route's own. */
export function deviceRoute(app: FastifyInstance, svc: Services): void {
  app.post<{ Body: Static<typeof DeviceBody> }>(
    '/auth/device',
    { config: { ownBearer: true }, schema: { body: DeviceBody } },
    async (req) => {
      const body = req.body ?? {};
      return startDeviceAuthorization(svc, {
        scope: body.scope,
        clientId: body.client_id,
        clientSecret: body.client_secret,
        authorization: req.headers.authorization,
      });
    },
  );
}
