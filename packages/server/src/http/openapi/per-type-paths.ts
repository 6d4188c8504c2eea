import type { JsonSchema } from '../../domain/schemas/document-json-schema.js';

type Operation = Record<string, unknown> & {
  operationId?: string;
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};

/** What each document operation does, for its `operationId`: `rest` is the path after `{type}`. */
const ACTIONS: Array<{ method: string; rest: string; verb: string; plural?: boolean }> = [
  { method: 'get', rest: '', verb: 'list', plural: true },
  { method: 'post', rest: '', verb: 'create' },
  { method: 'get', rest: '/{id}', verb: 'get' },
  { method: 'put', rest: '/{id}', verb: 'replace' },
  { method: 'patch', rest: '/{id}', verb: 'patch' },
  { method: 'delete', rest: '/{id}', verb: 'delete' },
  { method: 'post', rest: '/{id}/publish', verb: 'publish' },
  { method: 'post', rest: '/{id}/unpublish', verb: 'unpublish' },
  { method: 'post', rest: '/{id}/schedule', verb: 'schedule' },
  { method: 'post', rest: '/{id}/preview', verb: 'preview' },
  { method: 'delete', rest: '/{id}/draft', verb: 'discardDraftOf' },
  { method: 'get', rest: '/{id}/revisions', verb: 'listRevisionsOf' },
  { method: 'post', rest: '/{id}/revisions/{rev}/restore', verb: 'restoreRevisionOf' },
];

/**
 * A path per document type (docs/api.md, "OpenAPI"): `/api/documents/{type}…` becomes
 * `/api/documents/post…`, `/api/documents/author…`, each operation tied to its type's own schemas
 * (`Post`, `PostInput`, `PostPatch`) instead of a `oneOf` of every type, so a generator knows
 * that `post` is a `Post`. Operation ids name the type: `listPost`, `createPost`, `patchPost`
 * (`…Collection` under `/collections`, the signed-in view). With no type configured the generic
 * paths stay.
 */
export function splitPerType(
  doc: Record<string, unknown>,
  basePath: string,
  types: ReadonlyArray<{ name: string; component: string }>,
): void {
  if (types.length === 0) return;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const mode of ['documents', 'collections'] as const) {
    const prefix = `${basePath}/${mode}/{type}`;
    for (const path of Object.keys(paths)) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      const rest = path.slice(prefix.length);
      for (const type of types) {
        const item: Record<string, Operation> = {};
        for (const [method, op] of Object.entries(paths[path])) {
          const typed = structuredClone(op);
          typed.parameters = typed.parameters?.filter((p) => !(p.in === 'path' && p.name === 'type'));
          retarget(typed, type.component);
          const action = ACTIONS.find((a) => a.method === method && a.rest === rest);
          const noun = action?.plural ? plural(type.component) : type.component;
          if (action) typed.operationId = `${action.verb}${noun}${mode === 'collections' ? 'Collection' : ''}`;
          item[method] = typed;
        }
        paths[`${basePath}/${mode}/${type.name}${rest}`] = item;
      }
      delete paths[path];
    }
  }
}

/** `oneOf` every type's component → this type's (`Post`, `PostInput`), in bodies and answers. */
function retarget(op: Operation, component: string): void {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.oneOf) && o.oneOf.every((s) => typeof (s as { $ref?: unknown }).$ref === 'string')) {
      const suffix = /#\/components\/schemas\/[A-Za-z0-9_]+?(Input|Patch)?$/.exec((o.oneOf[0] as { $ref: string }).$ref)?.[1] ?? '';
      return { $ref: `#/components/schemas/${component}${suffix}` };
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v)]));
  };
  if (op.requestBody) op.requestBody = walk(op.requestBody) as Operation['requestBody'];
  if (op.responses) op.responses = walk(op.responses) as Operation['responses'];
}

const plural = (name: string) =>
  /(s|x|z|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`;
