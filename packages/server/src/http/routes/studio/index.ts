import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../../errors.js';
import { pageCsp } from '../../page-security.js';
import { sendError } from '../../plugins/errors.js';
import { varyOnEncoding } from '../../plugins/compress-responses.js';
import { compressBody } from '../../compression/compress-body.js';
import { negotiateEncoding, type Coding } from '../../compression/negotiate-encoding.js';

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

/** A file of the build, with the coded copies the build made of it (`.br`, `.gz`: packages/studio/scripts/precompress.mjs). */
interface BuiltFile {
  body: Buffer;
  encoded: Partial<Record<Coding, Buffer>>;
}

const CODED: Record<string, Coding> = { '.br': 'br', '.gz': 'gzip' };

/** Every file of the build, read once at start-up: a path can only name one of these (no traversal). */
function readBuild(root: string): Map<string, BuiltFile> {
  const all = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else all.set(relative(root, full).split(sep).join('/'), readFileSync(full));
    }
  };
  if (existsSync(root)) walk(root);
  const files = new Map<string, BuiltFile>();
  for (const [path, body] of all) {
    if (CODED[extname(path)] && all.has(path.slice(0, -3))) continue;
    const encoded: BuiltFile['encoded'] = {};
    for (const [ext, coding] of Object.entries(CODED)) {
      const copy = all.get(path + ext);
      if (copy) encoded[coding] = copy;
    }
    files.set(path, { body, encoded });
  }
  return files;
}

/** The file in the coding the browser accepts best, when the build made one (docs/api.md, "Compression"). */
function sendBuilt(req: FastifyRequest, reply: FastifyReply, file: BuiltFile): FastifyReply {
  if (Object.keys(file.encoded).length === 0) return reply.send(file.body);
  varyOnEncoding(reply);
  const coding = negotiateEncoding(req.headers['accept-encoding']);
  const encoded = coding && file.encoded[coding];
  return encoded ? reply.header('content-encoding', coding).send(encoded) : reply.send(file.body);
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
  const html = built ? Buffer.from(built.body.toString('utf8').replace('<meta name="vellum-api" content="/api" />', meta)) : NOT_BUILT;
  // Rewritten here, so coded here, once.
  const index: BuiltFile = {
    body: html,
    encoded: html.length >= 1024 ? { br: compressBody(html, 'br'), gzip: compressBody(html, 'gzip') } : {},
  };

  const secure = (reply: FastifyReply) =>
    reply.header('x-frame-options', 'DENY').header('content-security-policy', CSP).header('x-content-type-options', 'nosniff');
  const page = (req: FastifyRequest, reply: FastifyReply) =>
    sendBuilt(req, secure(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache'), index);

  app.get('/studio/assets/*', (req, reply) => {
    const path = `assets/${(req.params as { '*': string })['*']}`;
    const file = files.get(path);
    // A missing file is the API's 404 body, as every other route answers (docs/api.md, "Errors").
    if (!file) return sendError(secure(reply).header('cache-control', 'no-cache'), errors.notFound(`No file ${req.url.split('?')[0]}`));
    // Hashed names: a changed file gets a new name, so the old one never needs revalidating.
    const headers = secure(reply)
      .type(TYPES[extname(path)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable');
    return sendBuilt(req, headers, file);
  });
  app.get('/studio', page);
  app.get('/studio/*', (req, reply) => {
    const path = (req.params as { '*': string })['*'];
    const file = path !== 'index.html' ? files.get(path) : undefined;
    if (!file) return page(req, reply);
    return sendBuilt(
      req,
      secure(reply)
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .header('cache-control', 'no-cache'),
      file,
    );
  });
}
