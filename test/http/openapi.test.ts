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

/** The documented exceptions: the studio's pages, the docs page and its files (HTML, not API); HEAD beside each GET. */
const hidden = (url: string) => url === '/studio' || url.startsWith('/studio/') || url === '/api/docs' || url.startsWith('/api/docs/');

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
      for (const m of [r.method].flat()) if (m !== 'HEAD') expected.add(`${m.toLowerCase()} ${openApiPath(r.url)}`);
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
        ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', ...required].sort(),
      );
      expect(full.properties._type).toEqual({ const: s.name });
      expect(Object.keys(input.properties).sort()).toEqual([...fields].sort());
      expect(input.required ?? []).toEqual(required);
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

  it('points the document routes at the type schemas', () => {
    const get = doc.paths['/api/documents/{type}/{id}'].get as unknown as {
      parameters: Array<{ name: string; schema: { enum?: string[] } }>;
      responses: Record<
        string,
        { content: { 'application/json': { schema: { properties: { data: { oneOf: Array<{ $ref: string }> } } } } } }
      >;
    };
    expect(get.parameters.find((p) => p.name === 'type')!.schema.enum).toEqual(TEST_SCHEMAS.map((s) => s.name));
    const refs = get.responses['200'].content['application/json'].schema.properties.data.oneOf.map((r) => r.$ref);
    expect(refs).toContain('#/components/schemas/Post');
    const post = doc.paths['/api/collections/{type}'].post as unknown as {
      requestBody: { content: { 'application/json': { schema: { oneOf: Array<{ $ref: string }> } } } };
    };
    expect(post.requestBody.content['application/json'].schema.oneOf.map((r) => r.$ref)).toContain('#/components/schemas/PostInput');
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
