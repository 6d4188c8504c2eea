import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { listSchemas } from '../../../domain/schemas/list-schemas.js';
import type { Services } from '../../../domain/services.js';
import { data, errorResponses } from '../../schemas/common.js';

const Schema = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    type: Type.String(),
    public: Type.Boolean(),
    fields: Type.Array(Type.Any()),
  },
);

export async function configRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  // Public: schemas hold no secrets (DESIGN.md §10).
  app.get('/config/schemas', { schema: { response: { 200: data(Type.Array(Schema)), ...errorResponses } } }, async () => ({
    data: listSchemas(svc),
  }));
}
