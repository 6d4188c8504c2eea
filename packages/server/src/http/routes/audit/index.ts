import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { listAudit } from '../../../domain/audit/list-audit.js';
import type { Services } from '../../../domain/services.js';
import { errorResponses, Meta, Nullable } from '../../schemas/common.js';

const Query = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 500 })),
    since: Type.Optional(Type.String({ maxLength: 64 })),
    until: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String()),
    offset: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const Record = Type.Object({
  id: Type.String(),
  type: Type.String(),
  at: Type.String(),
  actor: Type.Object({ id: Nullable(Type.String()), kind: Type.String() }),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  target: Nullable(Type.String()),
  details: Nullable(Type.Record(Type.String(), Type.Unknown())),
});

export async function auditRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/audit',
    {
      config: { auth: true },
      schema: { querystring: Query, response: { 200: Type.Object({ data: Type.Array(Record), meta: Meta }), ...errorResponses } },
    },
    async (req) => listAudit(svc, req.principal, req.query),
  );
}
