type PathItem = Record<string, { parameters?: unknown[] }>;

/**
 * Gives each route whose querystring is a map one parameter of OpenAPI 3.1 §4.8.12.4's form
 * style with `explode`: an object whose every property is a query parameter of its own.
 * `byUrl` holds, per Fastify URL (`/api/auth/authorize`), the schema of each value.
 */
export function addFreeFormQueries(doc: Record<string, unknown>, byUrl: ReadonlyMap<string, unknown>): void {
  const paths = (doc.paths ?? {}) as Record<string, PathItem>;
  for (const [url, value] of byUrl) {
    const item = paths[url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')];
    if (!item) continue;
    for (const op of Object.values(item)) {
      op.parameters = [
        ...(op.parameters ?? []),
        { name: 'parameters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: value } },
      ];
    }
  }
}
