import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { decideAuthorization } from '../../../domain/oauth2/decide-authorization.js';
import { requireSignedInUser } from '../../../domain/oauth2/signed-in-user.js';
import { startAuthorization } from '../../../domain/oauth2/start-authorization.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses } from '../../schemas/common.js';

const Param = Type.String({ maxLength: 2048 });

/** The authorization request's query (RFC 6749 §4.1.1); a parameter sent twice arrives as a list and is refused by the domain. */
const AuthorizeQuery = Type.Record(Type.String(), Type.Union([Param, Type.Array(Param)]));

/**
 * The same parameters as JSON, plus the user's decision. Parameters this server does not know
 * are ignored, as RFC 6749 §3.1 requires of an authorization request.
 */
const DecisionBody = Type.Object(
  {
    action: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 })),
  },
  { additionalProperties: Param },
);

const Consent = data(
  Type.Object({
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    redirectUri: Type.String(),
    state: Type.Optional(Type.String()),
  }),
);
const Decision = data(Type.Object({ redirectUrl: Type.String() }));

/**
 * `GET` and `POST /auth/authorize` (docs/oauth2.md, "Authorization code with PKCE"): the browser-facing half of
 * the authorization-code flow, in the API's error body. Answers carry a code or the user's
 * choices, so nothing here is cached (RFC 6749 §5.1 asks the same of the token endpoint).
 */
export function authorizeRoutes(app: FastifyInstance, svc: Services): void {
  app.get<{ Querystring: Static<typeof AuthorizeQuery> }>(
    '/auth/authorize',
    { schema: { querystring: AuthorizeQuery, response: { 200: Consent, ...errorResponses } } },
    async (req, reply) => {
      const at = req.url.indexOf('?');
      const answer = startAuthorization(svc, req.principal, req.query, at < 0 ? '' : req.url.slice(at + 1));
      reply.header('cache-control', 'no-store');
      if (answer.kind === 'redirect') return reply.redirect(answer.location, 302);
      return { data: answer.consent };
    },
  );

  app.post<{ Body: Static<typeof DecisionBody> }>(
    '/auth/authorize',
    // Only a user's session decides (an anonymous caller is 401, a token 403), before the body is read.
    { config: { permission: requireSignedInUser }, schema: { body: DecisionBody, response: { 200: Decision, ...errorResponses } } },
    async (req, reply) => {
      const { action, scopes, ...params } = req.body;
      reply.header('cache-control', 'no-store');
      return { data: await decideAuthorization(svc, req.principal, params as Record<string, string>, { action, scopes }) };
    },
  );
}
