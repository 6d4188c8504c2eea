import type { FastifyInstance } from 'fastify';
import { ANONYMOUS, type Principal } from '../../domain/access/principal.js';
import { resolvePrincipal } from '../../domain/identity/resolve-principal.js';
import type { Services } from '../../domain/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The route reads the bearer itself (`POST /auth/refresh` accepts a refresh token there). */
    ownBearer?: boolean;
  }
}

/** Resolves the caller once per request, before any route runs; routes read `request.principal`. */
export function registerAuthentication(app: FastifyInstance, svc: Services): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    request.principal = ANONYMOUS;
    if (request.routeOptions.config?.ownBearer) return;
    request.principal = await resolvePrincipal(svc, request.headers.authorization);
  });
}
