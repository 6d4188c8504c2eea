import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../domain/services.js';
import { etagMatches } from '../../domain/documents/write-document.js';

interface Entry {
  version: number;
  expires: number;
  body: string;
  etag?: string;
}

export interface PublicCacheOptions {
  /** Bounds staleness across nodes until content changes travel between them. */
  ttlMs: number;
  maxEntries: number;
  maxEntryBytes: number;
}

const cacheVersion = Symbol('public-cache-version');
type Marked = FastifyRequest & { [cacheVersion]?: number };

/**
 * Anonymous reads of published content are the same for every anonymous caller, so their
 * rendered JSON is kept per URL. An entry is served only while no document was written since it
 * was rendered (the content version it was started at is still current) and within its TTL.
 * Signed-in callers always get a fresh answer (what they may read differs per caller).
 */
export function registerPublicCache(app: FastifyInstance, svc: Services, opts: PublicCacheOptions): void {
  const entries = new Map<string, Entry>();

  app.addHook('onRequest', async (request: Marked, reply) => {
    if (request.method !== 'GET' || request.principal.kind !== 'anonymous') return;
    const entry = entries.get(request.url);
    const version = svc.changes.version;
    if (entry && entry.version === version && entry.expires > Date.now()) {
      if (entry.etag) reply.header('etag', entry.etag);
      const inm = request.headers['if-none-match'];
      if (entry.etag && inm && etagMatches(inm, Number(entry.etag.slice(1, -1)))) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    }
    // The version is taken before reading: a write that lands meanwhile makes this render stale at once.
    request[cacheVersion] = version;
  });

  app.addHook('onSend', async (request: Marked, reply, payload) => {
    const version = request[cacheVersion];
    if (version === undefined || reply.statusCode !== 200 || typeof payload !== 'string' || payload.length > opts.maxEntryBytes) return payload;
    if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
    const etag = reply.getHeader('etag');
    entries.delete(request.url);
    entries.set(request.url, { version, expires: Date.now() + opts.ttlMs, body: payload, etag: typeof etag === 'string' ? etag : undefined });
    return payload;
  });
}
