import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requirePermission } from '../../domain/access/policy.js';
import type { Services } from '../../domain/services.js';
import { errors } from '../../errors.js';
import { pageCsp } from '../page-security.js';

/** The page's own files only, no framing (http/page-security.ts). */
const CSP = pageCsp();

/** Starts Swagger UI on the document; the URL comes from the page, so the script is a fixed file (no inline script). */
const INIT = `window.addEventListener('load', function () {
  var url = document.querySelector('meta[name="vellum-openapi"]').getAttribute('content');
  window.ui = SwaggerUIBundle({ url: url, dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });
});
`;

const ASSETS: Record<string, { file?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'init.js': { type: 'text/javascript; charset=utf-8' },
};

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `GET /openapi.json` (the OpenAPI 3.1 document) and `GET /docs` (Swagger UI over it, its files
 * served from node_modules: no network needed). Public unless `openapi.public` is false, then
 * they need `studio:access` (docs/api.md, "OpenAPI").
 */
export async function openApiRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const { basePath } = svc.config.server;
  const gate = async (req: FastifyRequest) => {
    if (!svc.config.openapi.public) requirePermission(req.principal, 'studio:access');
  };
  const secure = (reply: FastifyReply) =>
    reply.header('x-frame-options', 'DENY').header('content-security-policy', CSP).header('x-content-type-options', 'nosniff');

  app.get('/openapi.json', { onRequest: gate, schema: { summary: 'This OpenAPI 3.1 document', tags: ['system'] } }, async () =>
    app.swagger(),
  );

  const page = Buffer.from(
    // No favicon request: the server has no /favicon.ico.
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vellum API</title><link rel="icon" href="data:,">' +
      `<meta name="vellum-openapi" content="${escape(`${basePath}/openapi.json`)}">` +
      `<link rel="stylesheet" href="${escape(`${basePath}/docs/assets/swagger-ui.css`)}"></head>` +
      '<body><div id="swagger-ui"></div>' +
      `<script src="${escape(`${basePath}/docs/assets/swagger-ui-bundle.js`)}"></script>` +
      `<script src="${escape(`${basePath}/docs/assets/init.js`)}"></script></body></html>`,
  );
  app.get('/docs', { onRequest: gate }, (_req, reply) =>
    secure(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page),
  );

  // Read on first use, then kept: start-up does not pay for 1.5 MB it may never serve.
  const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const loaded = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/docs/assets/:file', (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (!asset) throw errors.notFound('No such file');
    let body = loaded.get(req.params.file);
    if (!body) {
      body = asset.file ? readFileSync(join(root, asset.file)) : Buffer.from(INIT);
      loaded.set(req.params.file, body);
    }
    return secure(reply).type(asset.type).header('cache-control', 'public, max-age=3600').send(body);
  });
}
