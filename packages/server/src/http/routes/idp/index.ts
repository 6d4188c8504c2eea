import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { completeIdp } from '../../../domain/idp/complete-idp.js';
import { idpStatus, requireIdp, requireSessionUser } from '../../../domain/idp/idp-settings.js';
import { startIdp } from '../../../domain/idp/start-idp.js';
import { unlinkIdp } from '../../../domain/idp/unlink-idp.js';
import type { Services } from '../../../domain/services.js';
import { gateRoutes } from '../../plugins/authenticate.js';
import { loginReply } from '../auth/login-reply.js';
import * as S from './schemas.js';

/**
 * Identity-provider sign-in (docs/api.md, "Identity provider"). With `security.oauth` unset every
 * route but the status answers 501, signed in or not, before its body is read. Unlinking needs the
 * user's session, checked before the body too; linking (`init` with `mode: link`) says so in its
 * body, so that session is checked after it.
 */
export async function idpRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  app.get('/auth/oauth/status', { schema: { response: { 200: S.Status, ...S.errorResponses } } }, async (req) => ({
    data: await idpStatus(svc, req.principal),
  }));

  gateRoutes(app, () => requireIdp(svc));

  app.post<{ Body: Static<typeof S.InitBody> }>(
    '/auth/oauth/idp/init',
    { schema: { body: S.InitBody, response: { 200: S.InitResult, ...S.errorResponses } } },
    async (req) => ({ data: await startIdp(svc, req.principal, req.body?.mode ?? 'login') }),
  );

  app.post<{ Body: Static<typeof S.CallbackBody> }>(
    '/auth/oauth/idp/callback',
    { schema: { body: S.CallbackBody, response: { 200: S.CallbackResult, ...S.errorResponses } } },
    async (req, reply) => {
      const result = await completeIdp(svc, { ...req.body, ip: req.ip, userAgent: req.headers['user-agent'] });
      if (result.outcome === 'linked') return { data: { linked: true as const } };
      return loginReply(reply, svc, result);
    },
  );

  app.delete(
    '/auth/oauth/idp/unlink',
    { config: { permission: requireSessionUser }, schema: { response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await unlinkIdp(svc, req.principal);
      return { data: { success: true as const } };
    },
  );
}
