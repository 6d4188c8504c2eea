type Operation = Record<string, unknown> & {
  parameters?: Array<Record<string, unknown>>;
  responses?: Record<string, Record<string, unknown>>;
};

const ETAG = {
  description: 'The version read or written: send it back as `If-Match` (writes) or `If-None-Match` (reads)',
  schema: { type: 'string' },
};

const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
const IF_MATCH = header('If-Match', 'Write only if the document is still at this ETag (412 otherwise; docs/api.md, "Documents")');
const IF_NONE_MATCH = header('If-None-Match', 'An ETag read before: 304 without a body while the document is unchanged');

/**
 * The conditional requests of documents (RFC 9110 §13.1): reads take `If-None-Match` and answer an
 * `ETag`; writes (PUT, PATCH, DELETE, and discarding a draft) take `If-Match` and answer the new `ETag`.
 */
export function addConditionalHeaders(doc: Record<string, unknown>, basePath: string): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    const rest = /^\/(?:documents|collections)\/[^/]+\/\{id\}(\/draft)?$/.exec(path.slice(basePath.length));
    if (!rest) continue;
    for (const [method, op] of Object.entries(item)) {
      const condition = rest[1]
        ? method === 'delete'
          ? IF_MATCH
          : undefined
        : method === 'get'
          ? IF_NONE_MATCH
          : ['put', 'patch', 'delete'].includes(method)
            ? IF_MATCH
            : undefined;
      if (!condition) continue;
      op.parameters = [...(op.parameters ?? []).filter((p) => p.name !== condition.name), condition];
      for (const [status, response] of Object.entries(op.responses ?? {}))
        if (/^2/.test(status) && status !== '204') response.headers = { ...(response.headers as object), ETag: ETAG };
      const responses = (op.responses ??= {});
      if (method === 'get') responses['304'] ??= { description: 'Unchanged since the ETag sent in `If-None-Match`' };
      else responses['412'] ??= { description: 'The document changed since that ETag (`If-Match`)' };
    }
  }
}
