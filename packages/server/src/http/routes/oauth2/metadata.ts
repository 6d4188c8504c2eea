import type { FastifyInstance } from 'fastify';
import { requireOAuth2 } from '../../../domain/oauth2/oauth2-gate.js';
import { serverMetadata } from '../../../domain/oauth2/server-metadata.js';
import type { Services } from '../../../domain/services.js';

export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** RFC 8414 §3: the metadata document, under the API base path (inside the oauth2 plugin). */
export function metadataRoute(app: FastifyInstance, svc: Services): void {
  app.get(METADATA_PATH, async () => serverMetadata(svc));
}

/**
 * The same document at the server's root, where RFC 8414 §3.1 has clients look for an issuer
 * without a path. Registered outside the API prefix, so it carries its own 501 gate.
 */
export async function rootMetadataRoutes(app: FastifyInstance, { svc }: { svc: Services }): Promise<void> {
  app.addHook('onRequest', async () => requireOAuth2(svc));
  metadataRoute(app, svc);
}
