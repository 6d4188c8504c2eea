import type { ConfigReader } from './reader.js';
import type { CorsConfig } from './types.js';

const SHAPE = 'expected true/false, an origin, a list of origins or {origins, credentials}';

/**
 * `server.cors`: `false` (default), `true` (any origin), an origin, a list of origins, or
 * `{origins, credentials}`. Origins are `scheme://host[:port]` as browsers send them (a trailing
 * slash is dropped); credentials are refused with any origin, which would let every site make
 * signed-in requests. The studio's own origin is added by the HTTP layer (docs/api.md, "CORS").
 */
export function corsSection(r: ConfigReader, raw: unknown): CorsConfig {
  if (raw === undefined || raw === null || raw === false) return { origins: [], credentials: false };
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const o = r.object('server.cors', raw, ['origins', 'credentials']);
    const origins =
      o.origins === undefined ? (r.problem('server.cors.origins', 'required'), []) : originList(r, 'server.cors.origins', o.origins);
    const credentials = r.bool('server.cors.credentials', o.credentials, false);
    if (credentials && origins === true)
      r.problem('server.cors.credentials', 'not allowed with any origin (origins: true); list the origins that may send credentials');
    return { origins, credentials };
  }
  return { origins: originList(r, 'server.cors', raw), credentials: false };
}

function originList(r: ConfigReader, path: string, raw: unknown): true | string[] {
  if (raw === true || raw === '*') return true;
  if (raw === false) return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((o) => typeof o === 'string')) {
    r.problem(path, SHAPE);
    return [];
  }
  return list.flatMap((o) => {
    const origin = originOf(o);
    if (origin === undefined) r.problem(path, `"${o}" is not an origin (scheme://host[:port], no path)`);
    return origin === undefined ? [] : [origin];
  });
}

/** `https://cms.example/` → `https://cms.example`; undefined for anything with a path, query or credentials. */
function originOf(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  return web && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password ? url.origin : undefined;
}
