import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Serves the studio's built page at /studio (a placeholder until the studio is built). */
export async function studioRoutes(app: FastifyInstance) {
  const root = join(dirname(createRequire(import.meta.url).resolve('@vellum/studio/package.json')), 'public');
  const index = readFileSync(join(root, 'index.html'));
  const send = (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  app.get('/studio', send);
  app.get('/studio/*', send);
}
