import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';

/**
 * Text that no database stores faithfully is refused at the edge (docs/api.md, "Errors"): NUL
 * characters (PostgreSQL text cannot hold them, SQLite cuts LIKE patterns at them) and lone UTF-16
 * surrogates (not valid Unicode, so not valid jsonb). One rule, `refuseBadText`, for every way text
 * enters: headers here in `onRequest`; path, query and parsed bodies (JSON, and the OAuth
 * endpoints' form bodies) in `preValidation`; multipart field names, values and file names where
 * the upload route reads its parts (routes/media/upload.ts), which no hook sees.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    // The router refuses a malformed percent-escape in the path; the query string is parsed leniently
    // (`%ZZ` kept as it is), so it is checked here, before anything reads it (RFC 3986 §2.1).
    const at = request.url.indexOf('?');
    if (at !== -1 && !isWellFormedQuery(request.url.slice(at + 1)))
      throw errors.invalidInput('Malformed percent-encoding in the query string', [
        { field: 'query', message: 'every % must start an escape of valid UTF-8' },
      ]);
    // Over a socket Node's parser already refuses NUL and other control bytes in a header
    // (plugins/client-errors.ts) and reads the rest as latin1, so this holds the rule for requests
    // made without one (`inject`), before authentication, sessions or the audit log read a header.
    refuseBadText(request.headers, 'header');
  });
  app.addHook('preValidation', async (request) => {
    refuseBadText(request.params, 'path');
    refuseBadText(request.query, 'query');
    refuseBadText(request.body, 'body');
  });
}

/** NUL, or not well-formed UTF-16 (a lone surrogate): text no database stores as it was sent. */
export function badText(s: string): boolean {
  return s.includes('\u0000') || !s.isWellFormed();
}

/**
 * 400 `INVALID_INPUT` naming the first bad string in `value` (a string, or objects and arrays of
 * them, keys included) by its dotted path under `field`: `body.alt`, `header.user-agent`. Values
 * nested deeper than `MAX_NESTING` are refused too: every later step that walks a value (merge
 * patch, validation, equality) would otherwise have to be written without recursion, and no real
 * content is that deep (Ruby's JSON parser refuses past the same 100 levels by default).
 */
export function refuseBadText(value: unknown, field: string): void {
  const bad = findBadString(value, field);
  if (bad === undefined) return;
  if (bad.tooDeep)
    throw errors.invalidInput(`${bad.path} is nested more than ${MAX_NESTING} levels deep`, [
      { field: bad.path, message: `must not be nested more than ${MAX_NESTING} levels deep` },
    ]);
  throw errors.invalidInput(`${bad.path} contains a NUL character or invalid Unicode`, [
    { field: bad.path, message: 'must be valid Unicode text without NUL characters' },
  ]);
}

/** How deep objects and arrays may nest in any input (the top-level body is level 1). */
export const MAX_NESTING = 100;

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

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
  depth: number;
}

/**
 * The dotted path of the first bad string (value or key), or of the first value nested past
 * `MAX_NESTING`, or undefined. Walked with a stack of its own rather than recursion, so the walk
 * itself never overflows; each visit links to its parent, and only the path found is spelled out.
 */
function findBadString(root: unknown, rootPath: string): { path: string; tooDeep?: true } | undefined {
  const pending: Visit[] = [{ value: root, key: rootPath, parent: undefined, depth: 0 }];
  for (let at = pending.pop(); at; at = pending.pop()) {
    const { value, depth } = at;
    if (typeof value === 'string') {
      if (badText(value)) return { path: pathOf(at) };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_NESTING) return { path: pathOf(at), tooDeep: true };
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key: String(i), parent: at, depth: depth + 1 });
      } else {
        const entries = Object.entries(value);
        for (const [key] of entries) if (badText(key)) return { path: pathOf({ value: key, key: '(key)', parent: at, depth }) };
        for (let i = entries.length - 1; i >= 0; i--)
          pending.push({ value: entries[i][1], key: entries[i][0], parent: at, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

const MAX_PATH_SEGMENTS = 64;

/** `body.seo.title`; a path deeper than any real field is cut, so the answer stays small. */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | undefined = visit; v; v = v.parent) keys.push(v.key);
  keys.reverse();
  return keys.length > MAX_PATH_SEGMENTS ? `${keys.slice(0, MAX_PATH_SEGMENTS).join('.')}.…` : keys.join('.');
}
