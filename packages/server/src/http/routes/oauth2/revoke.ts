import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { revokeToken } from '../../../domain/oauth2/revoke-token.js';
import type { Services } from '../../../domain/services.js';

/** Form fields as strings; unknown parameters are ignored (RFC 7009 §2.1). */
const RevokeBody = Type.Record(Type.String(), Type.String());

/**
 * `POST /auth/revoke` (RFC 7009): 200 with an empty JSON object whatever the token was (§2.2), so
 * the answer tells nothing about it; only client authentication and a missing token are errors.
 */
export function revokeRoute(app: FastifyInstance, svc: Services): void {
  app.post<{ Body: Static<typeof RevokeBody> }>(
    '/auth/revoke',
    { config: { ownBearer: true }, schema: { body: RevokeBody } },
    async (req) => {
      const body = req.body ?? {};
      await revokeToken(
        svc,
        {
          token: body.token,
          token_type_hint: body.token_type_hint,
          clientId: body.client_id,
          clientSecret: body.client_secret,
          authorization: req.headers.authorization,
        },
        { ip: req.ip, userAgent: req.headers['user-agent'] },
      );
      return {};
    },
  );
}
