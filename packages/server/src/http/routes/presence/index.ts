import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { announcePresence, leavePresence, listPresence, requirePresence } from '../../../domain/presence/presence.js';
import type { Principal } from '../../../domain/access/principal.js';
import type { Services } from '../../../domain/services.js';
import { requireSignInForRoutes } from '../../plugins/authenticate.js';
import { data, errorResponses, Nullable } from '../../schemas/common.js';

// `docType`, not `type`: the OpenAPI document lists `{type}` paths once per document type, and presence is the same for all.
const Params = Type.Object({ docType: Type.String({ maxLength: 100 }), id: Type.String({ minLength: 1, maxLength: 200 }) });

const Heartbeat = Type.Object(
  {
    field: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'the field focused (its path)' }))),
    editing: Type.Optional(Type.Boolean({ description: 'the caller typed in the document lately' })),
  },
  { additionalProperties: false },
);

const PresentUser = Type.Object({
  session: Type.String({ description: 'an opaque key of the sign-in session: two tabs are two entries' }),
  userId: Type.String(),
  name: Type.String(),
  field: Nullable(Type.String()),
  editing: Type.Boolean(),
  since: Type.String(),
});

const NoContent = Type.Null({ description: 'No content' });

/**
 * Who has a document open (docs/realtime.md, "Presence"): heartbeats held in memory on every node
 * and shared on the change bus. Nothing is stored, audited or sent to webhooks.
 */
export async function presenceRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  requireSignInForRoutes(app);
  // Before the body (docs/api.md, "Errors"): a caller who may not be present hears 403, not what is wrong with its body.
  const permission = (p: Principal, params: Record<string, string | undefined>) => requirePresence(svc, p, params.docType ?? '');

  app.put<{ Params: Static<typeof Params>; Body: Static<typeof Heartbeat> }>(
    '/presence/:docType/:id',
    {
      config: { permission },
      schema: {
        summary: 'Say you have a document open',
        description:
          'A heartbeat: kept for 30 s, so send it every 10 s and when the focused field or `editing` changes. Signed in as a ' +
          'person (not an API or preview token), with read permission on the type.',
        params: Params,
        body: Heartbeat,
        response: { 204: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      announcePresence(svc, req.principal, { type: req.params.docType, id: req.params.id, ...req.body });
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: Static<typeof Params> }>(
    '/presence/:docType/:id',
    {
      config: { permission },
      schema: {
        summary: 'Say you left a document',
        params: Params,
        response: { 204: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      leavePresence(svc, req.principal, { type: req.params.docType, id: req.params.id });
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof Params> }>(
    '/presence/:docType/:id',
    {
      schema: {
        summary: 'Who has a document open',
        description: 'Every sign-in session with a heartbeat in the last 30 s, on any node; read permission on the type.',
        params: Params,
        response: { 200: data(Type.Array(PresentUser)), ...errorResponses },
      },
    },
    async (req) => ({ data: listPresence(svc, req.principal, { type: req.params.docType, id: req.params.id }) }),
  );
}
