import { typeNames } from '@vellum/client/type-names';
import { documentInputJsonSchema, documentJsonSchema, type JsonSchema } from '../../domain/schemas/document-json-schema.js';
import type { Services } from '../../domain/services.js';

type Operation = Record<string, unknown> & { parameters?: Array<Record<string, unknown>>; responses?: Record<string, unknown> };

/**
 * Component names for the configured types, the interface names `vellum types` gives them
 * (`post` → `Post`, its body → `PostInput`): one naming, the client's.
 */
export const componentNames = typeNames;

/**
 * One component schema per configured document type, and the document routes pointed at them:
 * the `type` path parameter lists the types, bodies and answers name their schemas (`oneOf`, since
 * one path serves every type). The routes' own validation is untouched: the domain checks bodies.
 */
export function addDocumentTypes(doc: Record<string, unknown>, svc: Services): void {
  const types = svc.schemas.list();
  if (types.length === 0) return;
  const names = componentNames(types.map((t) => t.name));
  const components = (doc.components ??= {}) as Record<string, Record<string, JsonSchema>>;
  const schemas = (components.schemas ??= {});
  for (const t of types) {
    const input = documentInputJsonSchema(t);
    const inputProps = { ...WRITABLE_SYSTEM_FIELDS, ...(input.properties as Record<string, JsonSchema>) };
    schemas[names.get(t.name)!] = documentJsonSchema(t);
    schemas[`${names.get(t.name)!}Input`] = { ...input, properties: inputProps };
    // RFC 7396: every field optional, `null` removes it.
    schemas[`${names.get(t.name)!}Patch`] = {
      title: `${t.title} (merge patch)`,
      type: 'object',
      properties: Object.fromEntries(Object.entries(inputProps).map(([k, v]) => [k, k === '_id' ? v : { anyOf: [v, { type: 'null' }] }])),
    };
    delete (schemas[`${names.get(t.name)!}Patch`].properties as Record<string, JsonSchema>)._id;
  }
  const ref = (suffix: string) => ({ oneOf: types.map((t) => ({ $ref: `#/components/schemas/${names.get(t.name)!}${suffix}` })) });
  const one = { type: 'object', properties: { data: ref('') }, required: ['data'] };
  const list = {
    type: 'object',
    properties: { data: { type: 'array', items: ref('') }, meta: { $ref: '#/components/schemas/ListMeta' } },
    required: ['data'],
  };
  schemas.ListMeta = {
    type: 'object',
    properties: {
      total: { type: 'integer' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      nextCursor: { type: ['string', 'null'], description: 'Send as `after` for the next page; null on the last page' },
      totalExact: { type: 'boolean', enum: [false], description: 'Present only when `total` is a lower bound (docs/api.md, "Totals")' },
    },
  };

  const base = svc.config.server.basePath;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const mode of ['documents', 'collections']) {
    const prefix = `${base}/${mode}/{type}`;
    for (const [path, item] of Object.entries(paths)) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      const rest = path.slice(prefix.length);
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) {
          if (p.in === 'path' && p.name === 'type') p.schema = { type: 'string', enum: types.map((t) => t.name) };
        }
        const isList = method === 'get' && rest === '';
        const isOne = rest === '/{id}' || (method === 'post' && rest === '');
        if (isList) setJson(op, '200', list);
        if (isOne && method !== 'delete') setJson(op, method === 'post' ? '201' : '200', one);
        if (isOne && (method === 'post' || method === 'put')) op.requestBody = jsonBody(ref('Input'));
        if (isOne && method === 'patch')
          op.requestBody = {
            required: true,
            description: 'RFC 7396 merge patch (`application/json` is taken too)',
            content: { 'application/merge-patch+json': { schema: ref('Patch') } },
          };
        // `POST …/publish` reads a missing body as `{}` (docs/drafts.md, "Publishing"); the generator marks every body required.
        if (method === 'post' && rest === '/{id}/publish' && op.requestBody) (op.requestBody as { required?: boolean }).required = false;
      }
    }
  }
}

/** System fields a create or replace may carry: the id to create with, and the status to write (docs/api.md, "Documents"). */
const WRITABLE_SYSTEM_FIELDS: Record<string, JsonSchema> = {
  _id: { type: 'string', description: 'Create with this id (a UUIDv7 is made otherwise)' },
  _status: { enum: ['draft', 'published', 'archived'], description: 'Publishing needs the publish permission' },
};

function setJson(op: Operation, status: string, schema: JsonSchema): void {
  const responses = (op.responses ??= {});
  responses[status] = { description: 'The document(s)', content: { 'application/json': { schema } } };
}

function jsonBody(schema: JsonSchema) {
  return { required: true, content: { 'application/json': { schema } } };
}
