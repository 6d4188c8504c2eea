import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../../errors.js';
import { pageCsp } from '../../page-security.js';
import { sendError } from '../../plugins/errors.js';

/**
 * Serves the built studio (`packages/studio/dist`, docs/studio.md "Serving") at /studio: the
 * hashed files under /studio/assets/ cached for a year, and index.html for every other /studio
 * path (the studio routes in the browser), never cached so a new build is picked up at once.
 * Every answer forbids framing (the approve buttons of /studio/auth/device and
 * /studio/auth/authorize must not be clickable inside another site's frame) and loads nothing
 * but the studio's own files.
 */

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Every file of the build, read once at start-up: a path can only name one of these (no traversal). */
function readBuild(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join('/'), readFileSync(full));
    }
  };
  if (existsSync(root)) walk(root);
  return files;
}

const NOT_BUILT = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vellum Studio</title></head>' +
    '<body><main><h1>Vellum Studio</h1><p>The studio is not built: run <code>npm run build</code>.</p></main></body></html>',
);

export async function studioRoutes(app: FastifyInstance, { basePath, previewOrigins }: { basePath: string; previewOrigins: string[] }) {
  // QR codes of MFA setup are SVG data URLs; previews of files being uploaded are blob URLs; the
  // preview pane frames the schemas' preview pages (docs/preview.md).
  const CSP = pageCsp(['blob:'], previewOrigins);
  const root = join(dirname(createRequire(import.meta.url).resolve('@vellum/studio/package.json')), 'dist');
  const files = readBuild(root);
  const built = files.get('index.html');
  // The studio calls the API under the configured base path.
  const meta = `<meta name="vellum-api" content="${basePath.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}" />`;
  const index = built ? Buffer.from(built.toString('utf8').replace('<meta name="vellum-api" content="/api" />', meta)) : NOT_BUILT;

  const secure = (reply: FastifyReply) =>
    reply.header('x-frame-options', 'DENY').header('content-security-policy', CSP).header('x-content-type-options', 'nosniff');
  const page = (_req: FastifyRequest, reply: FastifyReply) =>
    secure(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);

  app.get('/studio/assets/*', (req, reply) => {
    const path = `assets/${(req.params as { '*': string })['*']}`;
    const body = files.get(path);
    // A missing file is the API's 404 body, as every other route answers (docs/api.md, "Errors").
    if (!body) return sendError(secure(reply).header('cache-control', 'no-cache'), errors.notFound(`No file ${req.url.split('?')[0]}`));
    // Hashed names: a changed file gets a new name, so the old one never needs revalidating.
    return secure(reply)
      .type(TYPES[extname(path)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body);
  });
  app.get('/studio', page);
  app.get('/studio/*', (req, reply) => {
    const path = (req.params as { '*': string })['*'];
    const body = path !== 'index.html' ? files.get(path) : undefined;
    if (!body) return page(req, reply);
    return secure(reply)
      .type(TYPES[extname(path)] ?? 'application/octet-stream')
      .header('cache-control', 'no-cache')
      .send(body);
  });
}
