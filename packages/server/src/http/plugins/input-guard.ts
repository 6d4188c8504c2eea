import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';

/**
 * Text that no database stores faithfully is refused at the edge: NUL characters (PostgreSQL
 * text cannot hold them, SQLite cuts LIKE patterns at them) and lone UTF-16 surrogates (not
 * valid Unicode, so not valid jsonb). Checked once for body, query and path parameters.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // The router refuses a malformed percent-escape in the path; the query string is parsed leniently
  // (`%ZZ` kept as it is), so it is checked here, before anything reads it (RFC 3986 §2.1).
  app.addHook('onRequest', async (request) => {
    const at = request.url.indexOf('?');
    if (at !== -1 && !isWellFormedQuery(request.url.slice(at + 1)))
      throw errors.invalidInput('Malformed percent-encoding in the query string', [
        { field: 'query', message: 'every % must start an escape of valid UTF-8' },
      ]);
  });
  app.addHook('preValidation', async (request) => {
    const bad = findBadString(request.params, 'path') ?? findBadString(request.query, 'query') ?? findBadString(request.body, 'body');
    if (bad)
      throw errors.invalidInput(`${bad} contains a NUL character or invalid Unicode`, [
        { field: bad, message: 'must be valid Unicode text without NUL characters' },
      ]);
  });
}

const MAX_DEPTH = 64;

/** Every `%` starts a `%XX` escape and the escapes decode to valid UTF-8. */
function isWellFormedQuery(query: string): boolean {
  if (!query.includes('%')) return true;
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}

function badText(s: string): boolean {
  return s.includes('\u0000') || !s.isWellFormed();
}

/** The dotted path of the first bad string (value or key), or undefined. */
function findBadString(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return badText(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadString(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    if (badText(key)) return `${path}.(key)`;
    const found = findBadString(v, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
