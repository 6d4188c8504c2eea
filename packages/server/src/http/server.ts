import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Services } from '../domain/services.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerBodyParsing } from './plugins/body-parsing.js';
import { clientErrorHandler } from './plugins/client-errors.js';
import { registerCors } from './plugins/cors.js';
import { registerResponseCompression } from './plugins/compress-responses.js';
import { registerErrorHandling, sendError } from './plugins/errors.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { errors } from '../errors.js';
import { registerRequestLog } from './plugins/request-log.js';
import { registerChangesSent } from './plugins/changes-sent.js';
import { registerUnreadBodyHandling } from './plugins/unread-body.js';
import { authRoutes } from './routes/auth/index.js';
import { configRoutes } from './routes/config/index.js';
import { documentRoutes } from './routes/documents/index.js';
import { studioRoutes } from './routes/studio/index.js';
import { previewOrigin } from '../config/preview-url-template.js';
import { systemRoutes } from './routes/system/index.js';
import { metricsRoutes } from './routes/metrics/index.js';
import { rootIndexRoute } from './routes/system/api-index.js';
import { tokenRoutes } from './routes/tokens/index.js';
import { webhookRoutes } from './routes/webhooks/index.js';
import { scheduleRoutes } from './routes/schedules/index.js';
import { eventRoutes } from './routes/events/index.js';
import { presenceRoutes } from './routes/presence/index.js';
import { userRoutes } from './routes/users/index.js';
import { auditRoutes } from './routes/audit/index.js';
import { mediaRoutes } from './routes/media/index.js';
import { mfaRoutes } from './routes/mfa/index.js';
import { passkeyRoutes } from './routes/passkeys/index.js';
import { idpRoutes } from './routes/idp/index.js';
import { oauth2Routes } from './routes/oauth2/index.js';
import { rootMetadataRoutes } from './routes/oauth2/metadata.js';
import { validatorCompiler } from './validation.js';
import { openApiRoutes } from './openapi/openapi-routes.js';
import { registerOpenApi } from './openapi/register-openapi.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The Fastify instance: plugins first, then the API under `server.basePath` and the studio at /studio. */
export function buildHttpServer(svc: Services): FastifyInstance {
  const { server } = svc.config;
  const app = Fastify({
    // The service's one pino logger; typed as Fastify's base logger so plugins see the usual instance type.
    loggerInstance: svc.log as FastifyBaseLogger,
    // Fastify's two lines per request are replaced by one (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: server.bodyLimit,
    trustProxy: server.trustProxy as boolean | string,
    requestIdHeader: false,
    // A caller's x-request-id is kept when it is a plain token, so logs can be joined across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 512 },
    // Errors raised before routing (a malformed URL) still leave in the spec's error body.
    frameworkErrors: (err, _req, reply) => {
      sendError(reply, errors.invalidInput(err.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : err.message));
    },
    // …and so do the bytes Node's HTTP parser refuses before there is a request at all.
    clientErrorHandler: clientErrorHandler(svc.log as FastifyBaseLogger),
  });
  closeConnectionsAsTheyIdle(app);
  registerBodyParsing(app);
  // Every answer, errors included, leaves with the request body read or the connection closing.
  registerUnreadBodyHandling(app);
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);
  registerCors(app, server);
  // On the root, so every route's answer is compressed; the response cache keeps what it made.
  registerResponseCompression(app, server.compression);
  registerRequestLog(app, svc.metrics);
  // Several nodes: a write answers once its changes are on their way to the other nodes.
  registerChangesSent(app, svc);
  // Before every route: it collects them as they are registered.
  registerOpenApi(app, svc);

  app.register(
    async (api) => {
      registerAuthentication(api, svc);
      await api.register(systemRoutes, { svc });
      // Off (`metrics.enabled: false`): the path does not exist (404).
      if (svc.config.metrics.enabled) await api.register(metricsRoutes, { svc });
      await api.register(authRoutes, { svc });
      await api.register(mfaRoutes, { svc });
      await api.register(passkeyRoutes, { svc });
      await api.register(idpRoutes, { svc });
      await api.register(oauth2Routes, { svc });
      await api.register(tokenRoutes, { svc });
      await api.register(webhookRoutes, { svc });
      await api.register(scheduleRoutes, { svc });
      await api.register(eventRoutes, { svc });
      await api.register(presenceRoutes, { svc });
      await api.register(userRoutes, { svc });
      await api.register(auditRoutes, { svc });
      await api.register(configRoutes, { svc });
      await api.register(documentRoutes, { svc, mode: 'documents' });
      await api.register(documentRoutes, { svc, mode: 'collections' });
      await api.register(mediaRoutes, { svc });
      await api.register(openApiRoutes, { svc });
    },
    { prefix: server.basePath },
  );
  // RFC 8414 §3.1: clients discover an issuer without a path at the root, outside the API prefix.
  app.register(rootMetadataRoutes, { svc });
  // The server's root says where things are (the API's root does too), unless the API is there.
  if (server.basePath !== '') app.register(rootIndexRoute, { basePath: server.basePath });
  const previewOrigins = [
    ...new Set(svc.schemas.list().flatMap((s) => (s.def.preview ? [previewOrigin(s.def.preview.url)] : []).filter((o) => o !== undefined))),
  ];
  app.register(studioRoutes, { basePath: server.basePath, previewOrigins });
  return app;
}

/**
 * While the server closes (docs/operations.md, "Shutdown"), a keep-alive connection whose last
 * request has just finished is closed at once: otherwise Node waits for the client's idle timeout
 * (5 s) before the process can exit. Costs nothing per request: a timer runs only while closing.
 */
function closeConnectionsAsTheyIdle(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), 50);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
