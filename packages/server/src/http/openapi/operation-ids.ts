type Operation = Record<string, unknown> & { operationId?: string };

const VERBS: Record<string, string> = { get: 'get', post: 'post', put: 'put', patch: 'patch', delete: 'delete', options: 'options' };

/**
 * An `operationId` for every operation (docs/api.md, "OpenAPI"), so generators name their
 * functions: the method and the path's segments in camel case, path parameters as `By<Name>`
 * (`GET /api/users/{id}` → `getUsersById`); one a route or the per-type paths set is kept. The
 * API's base path is left out. Two operations never share one: a clash gets a number.
 */
export function addOperationIds(doc: Record<string, unknown>, basePath: string): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  const used = new Set<string>();
  for (const item of Object.values(paths)) for (const op of Object.values(item)) if (op?.operationId) used.add(op.operationId);
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!VERBS[method] || op.operationId) continue;
      let id = operationIdFor(method, path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path);
      for (let n = 2; used.has(id); n++) id = `${id.replace(/\d+$/, '')}${n}`;
      used.add(id);
      op.operationId = id;
    }
  }
}

export function operationIdFor(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', param[1]] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [VERBS[method], ...words].map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}
