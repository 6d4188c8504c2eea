import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Serves the studio's built pages at /studio (a placeholder until the studio is built), and the
 * interim sign-in-and-approve page at the two addresses the authorization server sends people to:
 * `/studio/auth/device` (RFC 8628 `verification_uri`) and `/studio/auth/authorize` (the consent
 * page of the authorization-code flow; docs/oauth2.md).
 */
export async function studioRoutes(app: FastifyInstance, { basePath }: { basePath: string }) {
  const root = join(dirname(createRequire(import.meta.url).resolve('@vellum/studio/package.json')), 'public');
  const page = (name: string) => readFileSync(join(root, name));
  const index = page('index.html');
  // The page calls the API under the configured base path.
  const auth = Buffer.from(page('auth.html').toString('utf8').replace('content="/api"', `content="${basePath}"`));
  const send = (body: Buffer) => (_req: unknown, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      // The approve button must not be clickable from inside another site's frame.
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', "frame-ancestors 'none'")
      .send(body);
  app.get('/studio/auth/device', send(auth));
  app.get('/studio/auth/authorize', send(auth));
  app.get('/studio', send(index));
  app.get('/studio/*', send(index));
}
