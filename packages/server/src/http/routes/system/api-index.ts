import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { data } from '../../schemas/common.js';

/** Where a newcomer goes from the server's root or the API's (docs/api.md, "Where things are"). */
export function apiIndex(basePath: string) {
  return {
    name: 'Vellum',
    links: {
      studio: '/studio/',
      openapi: `${basePath}/openapi.json`,
      docs: `${basePath}/docs`,
      health: `${basePath}/health`,
      ready: `${basePath}/ready`,
    },
  };
}

const Links = Type.Object({
  studio: Type.String(),
  openapi: Type.String(),
  docs: Type.String(),
  health: Type.String(),
  ready: Type.String(),
});
export const ApiIndex = data(Type.Object({ name: Type.String(), links: Links }));

/**
 * `GET /` outside the API: the same links as the API's root, so a server opened in a browser or
 * with curl says where the studio, the API reference and the health checks are instead of 404.
 * Not part of the API (no OpenAPI operation): the API's own root is.
 */
export async function rootIndexRoute(app: FastifyInstance, { basePath }: { basePath: string }) {
  app.get('/', { schema: { hide: true } }, async () => ({ data: apiIndex(basePath) }));
}
