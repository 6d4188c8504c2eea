import type { FastifyInstance } from 'fastify';
import { requireOAuth2 } from '../../../domain/oauth2/oauth2-gate.js';
import type { Services } from '../../../domain/services.js';
import { gateRoutes } from '../../plugins/authenticate.js';
import { authorizeRoutes } from './authorize.js';
import { asRfcEndpoint } from './rfc-endpoint.js';
import { tokenRoute } from './token.js';
import { deviceRoute } from './device.js';
import { deviceVerifyRoutes } from './device-verify.js';
import { grantRoutes } from './grants.js';
import { metadataRoute } from './metadata.js';
import { revokeRoute } from './revoke.js';

/**
 * The authorization server (docs/oauth2.md). With `oauth2.enabled` unset every route here answers
 * 501 `NOT_IMPLEMENTED`, signed in or not, before its body is read. The RFC endpoints (device,
 * token, revoke) speak OAuth's forms and errors; the rest (device verification, authorization,
 * grants) speak the API's.
 */
export async function oauth2Routes(app: FastifyInstance, { svc }: { svc: Services }): Promise<void> {
  gateRoutes(app, () => requireOAuth2(svc));
  authorizeRoutes(app, svc);
  await app.register(async (rfc) => {
    asRfcEndpoint(rfc);
    tokenRoute(rfc, svc);
    deviceRoute(rfc, svc);
    revokeRoute(rfc, svc);
  });
  deviceVerifyRoutes(app, svc);
  grantRoutes(app, svc);
  metadataRoute(app, svc);
}
