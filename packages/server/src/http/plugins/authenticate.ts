import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANONYMOUS, type Principal } from '../../domain/access/principal.js';
import { requireAuthenticated } from '../../domain/access/policy.js';
import { principalFromBearer, resolvePrincipal } from '../../domain/identity/resolve-principal.js';
import { errors } from '../../errors.js';
import { ACCESS_COOKIE, csrfMatches, readCookie, SAFE_METHODS } from '../cookies.js';
import type { Services } from '../../domain/services.js';
import { bearerCredential } from '../bearer.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The route reads the bearer itself (`POST /auth/refresh` accepts a refresh token there). */
    ownBearer?: boolean;
    /**
     * The switch of the feature the route belongs to: the domain's gate (`requirePasskeys`,
     * `requireIdp`, `requireOAuth2`, `requireMail`), which throws 501 `NOT_IMPLEMENTED` while the
     * feature is off. Checked before sign-in and permission, so a switched-off feature is 501
     * signed in or not, and before the body (docs/api.md, "Errors").
     */
    feature?: () => unknown;
    /** The route needs a signed-in caller: anonymous requests get 401 before their body is validated. */
    auth?: boolean;
    /**
     * The policy question the route asks before its body is read (docs/api.md, "Errors": permission
     * before body): a call into `domain/access/policy.ts` (or a domain check built on it) that throws
     * 401/403. Only what the caller and the path decide; a part that depends on the body (the role an
     * invitation grants) stays in the operation, which also asks the same question again.
     */
    permission?: PermissionCheck;
  }
}

/**
 * A route's permission question: the caller, the raw path parameters (not yet validated) and the
 * request headers (a credential of the route's own, such as `x-mfa-setup-token`). It throws to
 * refuse; a promise it returns is awaited.
 */
export type PermissionCheck = (
  principal: Principal,
  params: Readonly<Record<string, string | undefined>>,
  headers: IncomingHttpHeaders,
) => unknown;

/**
 * Resolves the caller once per request, before any route runs; routes read `request.principal`.
 * The route's `feature` switch, sign-in (`auth`) and its `permission`, in that order, are checked
 * here, in `onRequest`: before the body is parsed (malformed JSON, an unsupported type,
 * `bodyLimit`), before the `preValidation` hooks (input-guard.ts) and before schema validation, so
 * a caller who may not use the route learns nothing about the body it sent (docs/api.md, "Errors").
 */
export function registerAuthentication(app: FastifyInstance, svc: Services): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    request.principal = ANONYMOUS;
    const config = request.routeOptions.config;
    if (!config?.ownBearer) request.principal = await authenticate(svc, request);
    config?.feature?.();
    if (config?.auth) requireAuthenticated(request.principal);
    await config?.permission?.(request.principal, request.params as Record<string, string | undefined>, request.headers);
  });
}

/** The caller of this request, by its bearer or cookie session; for routes that read the bearer themselves (`ownBearer`). */
export async function authenticate(svc: Services, request: FastifyRequest): Promise<Principal> {
  // A bearer header wins; without one, a cookie session (when enabled) authenticates.
  const cookie = svc.config.security.cookie && !request.headers.authorization ? readCookie(request, ACCESS_COOKIE) : undefined;
  const principal = cookie
    ? await principalFromBearer(svc, cookie)
    : await resolvePrincipal(svc, bearerCredential(request.headers.authorization));
  // Cookies ride along on cross-site requests; a write made with one must prove it came from our page.
  if (cookie && !SAFE_METHODS.has(request.method) && !csrfMatches(request))
    throw errors.forbidden('CSRF token missing or wrong (send the vellum_csrf cookie value in x-csrf-token)');
  return { ...principal, client: { ip: request.ip, userAgent: request.headers['user-agent'] } };
}

/**
 * Puts every route registered after it in this plugin behind the feature switch `gate` (501 before
 * sign-in and before the body; see `feature` above).
 */
export function gateRoutes(app: FastifyInstance, gate: () => unknown): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), feature: gate };
  });
}

/** Marks every route registered after it in this plugin as needing a signed-in caller (401 before the body is looked at). */
export function requireSignInForRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), auth: true };
  });
}
