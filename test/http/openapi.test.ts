import { Validator } from '@seriousme/openapi-schema-validator';
import type * as fastify from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * `GET /api/openapi.json` and `GET /api/docs` (docs/api.md, "OpenAPI"): a valid OpenAPI 3.1
 * document listing every route but the documented exceptions, one component schema per
 * configured type, and a docs page whose files are all served here.
 */

// Every route the server registers, seen the way Fastify's own onRoute hook sees it. The suites
// share their workers' module cache (vitest.config.ts): the server's modules are loaded afresh
// here, so they import the wrapped Fastify below, not the one an earlier file left loaded.
const registered = vi.hoisted(() => {
  vi.resetModules();
  return [] as Array<{ method: string | string[]; url: string }>;
});
vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof fastify>();
  const wrapped = ((opts: unknown) => {
    const app = (real.default as unknown as (o: unknown) => FastifyInstance)(opts);
    app.addHook('onRoute', (r: RouteOptions) => void registered.push({ method: r.method, url: r.url }));
    return app;
  }) as unknown as typeof real.default;
  return { ...real, default: wrapped };
});

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: { enum?: string[] } }> }>>;
  components: {
    schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, unknown>;
  };
};

/** Fastify `:name` → OpenAPI `{name}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The documented exceptions: the studio's pages, the docs page and its files (HTML, not API), the
 * metrics (the Prometheus text format, for scrapers: docs/operations.md), the server's root, and
 * every path with a trailing slash (the same operation as without); HEAD beside each GET.
 */
const hidden = (url: string) =>
  url === '/studio' ||
  url.startsWith('/studio/') ||
  url === '/api/docs' ||
  url.startsWith('/api/docs/') ||
  url === '/api/metrics' ||
  url === '/' ||
  url.endsWith('/');

/** A document route is listed once per configured type: `/api/documents/{type}` → `/api/documents/post`, … */
const perType = (path: string) =>
  /^\/api\/(documents|collections)\/\{type\}/.test(path) ? TEST_SCHEMAS.map((s) => path.replace('{type}', s.name)) : [path];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp({ schemas: TEST_SCHEMAS });
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('lists every registered route, but the documented exceptions', () => {
    const expected = new Set<string>();
    for (const r of registered) {
      if (hidden(r.url)) continue;
      for (const m of [r.method].flat())
        if (m !== 'HEAD') for (const path of perType(openApiPath(r.url))) expected.add(`${m.toLowerCase()} ${path}`);
    }
    const listed = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)));
    expect(expected.size).toBeGreaterThan(50);
    expect([...expected].filter((r) => !listed.has(r))).toEqual([]);
    expect([...listed].filter((r) => !expected.has(r))).toEqual([]);
    expect(listed.has('post /api/auth/login')).toBe(true);
    expect([...listed].some((r) => hidden(r.split(' ')[1]))).toBe(false);
  });

  it('has a component schema per document type whose properties and required list match its fields', () => {
    const names: Record<string, string> = { company: 'Company', author: 'Author', post: 'Post', secret: 'Secret', site: 'Site' };
    const system = ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', '_createdBy', '_updatedBy'];
    for (const s of TEST_SCHEMAS) {
      const full = doc.components.schemas[names[s.name]];
      const input = doc.components.schemas[`${names[s.name]}Input`];
      const fields = s.fields.map((f) => f.name);
      const required = s.fields.filter((f) => (f as { required?: boolean }).required).map((f) => f.name);
      expect(Object.keys(full.properties).sort()).toEqual([...system, ...fields].sort());
      expect([...(full.required ?? [])].sort()).toEqual(
        ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', '_createdBy', '_updatedBy', ...required].sort(),
      );
      expect(full.properties._type).toEqual({ const: s.name });
      // A create or replace may name its id and status.
      expect(Object.keys(input.properties).sort()).toEqual(['_id', '_status', ...fields].sort());
      expect(input.required ?? []).toEqual(required);
      // The merge patch: the same fields and `_status`, each optional and nullable (RFC 7396: null removes).
      const patch = doc.components.schemas[`${names[s.name]}Patch`];
      expect(Object.keys(patch.properties).sort()).toEqual(['_status', ...fields].sort());
      expect(patch.required).toBeUndefined();
      for (const f of fields) expect(patch.properties[f]).toEqual({ anyOf: [input.properties[f], { type: 'null' }] });
    }
    const post = doc.components.schemas.Post.properties;
    expect(post.slug).toEqual({ type: 'object', properties: { current: { type: 'string' } }, required: ['current'] });
    expect(post.category).toEqual({ type: 'string', enum: ['news', 'guide', 'opinion'] });
    expect(post.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(post.location).toEqual({
      type: 'object',
      properties: { lat: { type: 'number' }, lng: { type: 'number' } },
      required: ['lat', 'lng'],
    });
    expect(post.views).toEqual({ type: 'integer' });
    expect(post.meta).toEqual({});
    expect(post.seo).toMatchObject({ type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' } } });
  });

  it('gives each document type its own paths, tied to its own schemas, with an operationId on every operation', () => {
    type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };
    type Op = {
      operationId?: string;
      parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
      requestBody?: { content: Record<string, { schema: Schema & { required?: string[] } }> };
      responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
    };
    const op = (path: string, method: string) => doc.paths[path]?.[method] as unknown as Op;
    const get = op('/api/documents/post/{id}', 'get');
    expect(get.operationId).toBe('getPost');
    expect(get.parameters!.map((p) => p.name)).not.toContain('type');
    // No locales configured: `locale` takes no value, so it is not offered (docs/localization.md).
    expect(get.parameters!.map((p) => p.name)).not.toContain('locale');
    expect(get.responses['200'].content!['application/json'].schema.properties!.data).toEqual({ $ref: '#/components/schemas/Post' });
    const list = op('/api/documents/post', 'get');
    expect(list.operationId).toBe('listPosts');
    expect(list.parameters!.map((p) => p.name)).not.toContain('untranslated');
    expect(list.responses['200'].content!['application/json'].schema.properties!.data.items).toEqual({ $ref: '#/components/schemas/Post' });
    expect(list.parameters!.find((p) => p.name === 'limit')!.schema).toEqual({ type: 'integer', minimum: 0, maximum: 100 });
    expect(list.parameters!.find((p) => p.name === 'filter')).toMatchObject({ style: 'deepObject', explode: true });
    const create = op('/api/collections/author', 'post');
    expect(create.operationId).toBe('createAuthorCollection');
    expect(create.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AuthorInput' });
    // PATCH is RFC 7396, with the type's partial schema; conditional requests by ETag.
    const patch = op('/api/documents/post/{id}', 'patch');
    expect(patch.operationId).toBe('patchPost');
    expect(Object.keys(patch.requestBody!.content)).toEqual(['application/merge-patch+json']);
    expect(patch.requestBody!.content['application/merge-patch+json'].schema).toEqual({ $ref: '#/components/schemas/PostPatch' });
    for (const [path, method, header] of [
      ['/api/documents/post/{id}', 'get', 'If-None-Match'],
      ['/api/documents/post/{id}', 'put', 'If-Match'],
      ['/api/documents/post/{id}', 'patch', 'If-Match'],
      ['/api/documents/post/{id}', 'delete', 'If-Match'],
      ['/api/collections/post/{id}/draft', 'delete', 'If-Match'],
    ]) {
      const o = op(path, method);
      expect(
        o.parameters!.find((p) => p.in === 'header' && p.name === header),
        `${method} ${path}`,
      ).toBeDefined();
    }
    for (const method of ['get', 'put', 'patch'])
      expect(Object.keys(op('/api/documents/post/{id}', method).responses['200'].headers!)).toEqual(['ETag']);
    // The upload: a multipart body whose file is binary.
    const upload = op('/api/media', 'post');
    const form = upload.requestBody!.content['multipart/form-data'].schema;
    expect(form.properties!.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.required).toEqual(['file']);
    // Every operation has an id, none shared; no path is listed twice with a trailing slash.
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => (o as { operationId?: string }).operationId));
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(doc.paths).filter((p) => p.length > 1 && p.endsWith('/'))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.includes('{type}'))).toEqual([]);
  });

  it('describes the editorial routes and their parameters: drafts, perspectives, publishing, preview, schedules', () => {
    type Param = { name: string; in: string; description?: string; schema: { enum?: string[]; anyOf?: Array<{ enum?: string[] }> } };
    type Op = {
      summary?: string;
      description?: string;
      parameters?: Param[];
      requestBody?: {
        required?: boolean;
        content: { 'application/json': { schema: { properties?: Record<string, { description?: string }> } } };
      };
    };
    const op = (path: string, method: string) => (doc.paths[`/api${path}`]?.[method] as Op | undefined) ?? ({} as Op);
    const queryParam = (o: Op, name: string) => o.parameters?.find((p) => p.in === 'query' && p.name === name);
    /** A parameter's allowed values, whether the schema is an enum or a union of constants. */
    const values = (p: Param | undefined) => p?.schema.enum ?? p?.schema.anyOf?.flatMap((s) => s.enum ?? []);
    const described = (o: Op, where: string) => {
      expect(o.summary, where).toMatch(/\w/);
      expect(o.description?.length ?? 0, where).toBeGreaterThan(40);
    };

    for (const base of ['/documents/post', '/collections/post']) {
      const routes: Array<[string, string]> = [
        ['', 'get'],
        ['/{id}', 'get'],
        ['/{id}', 'put'],
        ['/{id}', 'patch'],
        ['/{id}/publish', 'post'],
        ['/{id}/unpublish', 'post'],
        ['/{id}/draft', 'delete'],
        ['/{id}/preview', 'post'],
        ['/{id}/schedule', 'post'],
        ['/{id}/revisions', 'get'],
        ['/{id}/revisions/{rev}/restore', 'post'],
      ];
      for (const [path, method] of routes) described(op(base + path, method), `${method} ${base}${path}`);

      for (const read of [op(base, 'get'), op(`${base}/{id}`, 'get')]) {
        const perspective = queryParam(read, 'perspective');
        expect(values(perspective)).toEqual(['published', 'drafts']);
        expect(perspective?.description).toContain('pending draft');
      }
      const list = op(base, 'get');
      for (const name of ['filter', 'orderBy', 'order', 'limit', 'offset', 'after', 'search', 'fields', 'expand'])
        expect(queryParam(list, name)?.description, name).toMatch(/\w/);

      for (const method of ['put', 'patch']) {
        const draft = queryParam(op(`${base}/{id}`, method), 'draft');
        expect(values(draft)).toEqual(['true', 'false']);
        expect(draft?.description).toContain('pending draft');
      }
      for (const path of ['/{id}/revisions', '/{id}/revisions/{rev}/restore']) {
        const o = op(base + path, path.endsWith('restore') ? 'post' : 'get');
        expect(values(queryParam(o, 'kind'))).toEqual(['main', 'draft']);
        expect(queryParam(o, 'kind')?.description).toMatch(/pending draft/);
      }
      const publish = op(`${base}/{id}/publish`, 'post');
      expect(queryParam(publish, 'force')?.description).toMatch(/older main version/);
      const publishBody = publish.requestBody?.content['application/json'].schema.properties ?? {};
      expect(Object.keys(publishBody).sort()).toEqual(['dryRun', 'withReferences']);
      expect(publish.requestBody?.required).toBe(false);
      expect(publishBody.withReferences?.description).toMatch(/\w/);
      const scheduleBody = op(`${base}/{id}/schedule`, 'post').requestBody?.content['application/json'].schema.properties ?? {};
      expect(Object.keys(scheduleBody).sort()).toEqual(['action', 'at']);
      expect(scheduleBody.at?.description).toMatch(/RFC 3339/);
    }

    const schedules = op('/schedules', 'get');
    described(schedules, 'get /schedules');
    for (const name of ['type', 'documentId', 'status', 'from', 'to', 'limit', 'offset'])
      expect(queryParam(schedules, name)?.description, name).toMatch(/\w/);
    expect(values(queryParam(schedules, 'status'))).toEqual(['pending', 'done', 'failed', 'cancelled']);
    described(op('/schedules/{id}', 'delete'), 'delete /schedules/{id}');
  });

  it('declares bearer, cookie and OAuth 2.0 security', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'cookie', 'oauth2']);
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { authorizationUrl: expect.stringMatching(/\/api\/auth\/authorize$/) } },
    });
  });

  it('serves the docs page, and every file it loads, from this server', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const refs = [...res.body.matchAll(/(?:src|href|content)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith('/'));
    expect(refs).toContain('/api/openapi.json');
    expect(refs.length).toBeGreaterThanOrEqual(4);
    expect(res.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const url of refs) {
      const asset = await t.request({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.body.length, url).toBeGreaterThan(0);
    }
    expect((await t.request({ method: 'GET', url: '/api/docs/assets/package.json' })).statusCode).toBe(404);
  });
});

describe('openapi.public = false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ schemas: TEST_SCHEMAS, openapi: { public: false } });
  });
  afterAll(() => t.close());

  it('needs studio:access for the document and the page', async () => {
    for (const url of ['/api/openapi.json', '/api/docs']) {
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url, token: await t.userToken('api', []) })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url, token: await t.userToken('viewer') })).statusCode).toBe(200);
    }
  });
});
