import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { exchangeToken } from '../../../domain/oauth2/exchange-token.js';
import type { Services } from '../../../domain/services.js';

/** Form fields as strings; unknown parameters are ignored (RFC 6749 §3.2). */
const TokenBody = Type.Record(Type.String(), Type.String());

/** `POST /auth/token` (RFC 6749 §3.2): every grant; the client may authenticate with HTTP Basic, so the bearer is the route's own. */
export function tokenRoute(app: FastifyInstance, svc: Services): void {
  app.post<{ Body: Static<typeof TokenBody> }>('/auth/token', { config: { ownBearer: true }, schema: { body: TokenBody } }, async (req) =>
    exchangeToken(svc, req.body ?? {}, req.headers.authorization),
  );
}
