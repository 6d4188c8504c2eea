import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { ACCESS_COOKIE } from '../cookies.js';
import { OAUTH_SCOPES } from '../../config/oauth-scopes.js';
import { addConditionalHeaders } from './conditional-headers.js';
import { addDocumentTypes, componentNames } from './document-types.js';
import { addFreeFormQueries } from './free-form-queries.js';
import { addListParameters, addLocaleParameter, addUploadBody } from './list-parameters.js';
import { addOperationIds } from './operation-ids.js';
import { splitPerType } from './per-type-paths.js';

/**
 * Collects every route as it is registered (an onRoute hook, so this must come before the
 * routes) and builds the OpenAPI 3.1 document from the schemas Fastify compiles for them. The
 * document is built on its first request and then cached (docs/api.md, "OpenAPI").
 *
 * Left out, on purpose: the studio's pages and files, and the API docs page with its files
 * (HTML for a browser, not API); HEAD routes Fastify adds beside each GET.
 */
export function registerOpenApi(app: FastifyInstance, svc: Services): void {
  const { basePath } = svc.config.server;
  const api = `${svc.config.oauth2.issuer}${basePath}`;
  const freeForm = new Map<string, unknown>();
  const scopes = Object.fromEntries(OAUTH_SCOPES.map((s) => [s, s]));
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vellum API',
        version: '1',
        description: 'The Vellum headless CMS API. Errors answer `{error: {code, message, details?}}` (docs/api.md, "Errors").',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token or an API token' },
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: ACCESS_COOKIE,
            description: 'The studio session (`security.cookie`); writes also need `x-csrf-token` = the `vellum_csrf` cookie',
          },
          oauth2: {
            type: 'oauth2',
            description: 'OAuth 2.0 (docs/api.md, "OAuth 2.0"): authorization code with PKCE (S256), or the device flow of RFC 8628',
            // OpenAPI 3.1 has no device flow (3.2 adds `deviceAuthorization`): an extension says where it is.
            flows: {
              authorizationCode: {
                authorizationUrl: `${api}/auth/authorize`,
                tokenUrl: `${api}/auth/token`,
                refreshUrl: `${api}/auth/token`,
                scopes,
              },
              ...{ 'x-deviceAuthorization': { deviceAuthorizationUrl: `${api}/auth/device`, tokenUrl: `${api}/auth/token`, scopes } },
            },
          },
        },
      },
      // Every operation accepts each; the ones that need none say so in their description.
      security: [{ bearer: [] }, { cookie: [] }, { oauth2: [] }, {}],
    },
    transform: ({ schema, url }) => {
      // A path with a trailing slash is the same operation as without: listed once (docs/api.md, "OpenAPI").
      const duplicate = url.length > 1 && url.endsWith('/');
      const hidden =
        duplicate || url === '/studio' || url.startsWith('/studio/') || url === `${basePath}/docs` || url.startsWith(`${basePath}/docs/`);
      if (hidden) return { schema: { ...schema, hide: true }, url };
      // A querystring that is a map (`Type.Record`, as /auth/authorize takes whatever RFC 6749 sends)
      // has no named parameters: it becomes one free-form parameter once the document is built.
      const qs = schema?.querystring as { properties?: unknown; patternProperties?: Record<string, unknown> } | undefined;
      if (qs && !qs.properties && qs.patternProperties) {
        freeForm.set(url, Object.values(qs.patternProperties)[0]);
        return { schema: withTag({ ...schema, querystring: undefined }, url, basePath), url };
      }
      return { schema: withTag(schema, url, basePath), url };
    },
    transformObject: (built) => {
      const doc = (built as { openapiObject: Record<string, unknown> }).openapiObject;
      addFreeFormQueries(doc, freeForm);
      addListParameters(doc, basePath);
      addUploadBody(doc, basePath);
      addLocaleParameter(
        doc,
        svc.config.locales?.list.map((l) => l.code),
      );
      addDocumentTypes(doc, svc);
      addConditionalHeaders(doc, basePath);
      const names = componentNames(svc.schemas.list().map((t) => t.name));
      splitPerType(
        doc,
        basePath,
        [...names].map(([name, component]) => ({ name, component })),
      );
      addOperationIds(doc, basePath);
      return doc;
    },
  });
}

/** Operations grouped by the first segment under the API (`/api/auth/login` → `auth`), unless a route names its own. */
function withTag<T extends { tags?: readonly string[] } | undefined>(schema: T, url: string, basePath: string): T {
  if (schema?.tags) return schema;
  const rest = url.startsWith(`${basePath}/`) ? url.slice(basePath.length + 1) : url.slice(1);
  const first = rest.split('/')[0];
  const tag = first === '.well-known' ? 'oauth2' : first === 'health' || first === 'ready' ? 'system' : first;
  return { ...schema, tags: [tag] } as T;
}
