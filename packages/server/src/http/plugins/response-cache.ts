import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DocumentAccessMode } from '../../domain/access/policy.js';
import { readScopeSignature, signatureReadsDrafts } from '../../domain/documents/read-scope-signature.js';
import { etagListHas } from '../etag.js';
import { compressBody } from '../compression/compress-body.js';
import { negotiateEncoding, type Coding } from '../compression/negotiate-encoding.js';
import { sentBodyOf } from '../compression/sent-body.js';
import { varyOnEncoding } from './compress-responses.js';
import type { Services } from '../../domain/services.js';

interface Entry {
  version: number;
  expires: number;
  body: string;
  etag?: string;
  /** The body in each coding asked for so far (docs/api.md, "Compression"): made once, served as is. */
  encoded: Partial<Record<Coding, Buffer>>;
}

export interface ResponseCacheOptions {
  mode: DocumentAccessMode;
  /** Bounds staleness across nodes until content changes travel between them. */
  ttlMs: number;
  maxEntries: number;
  maxEntryBytes: number;
  /** Bound on the bodies held in all (UTF-16 length as a proxy for bytes). */
  maxTotalBytes: number;
}

const cacheKey = Symbol('response-cache-key');
const cacheVersion = Symbol('response-cache-version');
type Marked = FastifyRequest & { [cacheKey]?: string; [cacheVersion]?: number };

/**
 * Rendered document reads, kept per URL and per *read scope*: what a caller may read of each
 * schema (all, published only, none) is the only thing about the caller a document response
 * depends on, so callers with the same scopes share entries. The caller is still authenticated
 * on every request (revoked sessions stop at once). An entry is served only while no document
 * was written since it was rendered, and within its TTL.
 */
export function registerResponseCache(app: FastifyInstance, svc: Services, opts: ResponseCacheOptions): void {
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  const sizeOf = (e: Entry) => e.body.length + (e.encoded.br?.length ?? 0) + (e.encoded.gzip?.length ?? 0);
  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) totalBytes -= sizeOf(e);
    entries.delete(key);
  };
  const { compression } = svc.config.server;
  const compressed = (entry: Entry) => compression.enabled && entry.body.length >= compression.minBytes;

  app.addHook('preHandler', async (request: Marked, reply) => {
    if (request.method !== 'GET') return;
    const signature = readScopeSignature(svc, request.principal, opts.mode);
    const key = `${signature} ${request.url}`;
    // `Cache-Control: no-cache` (RFC 9111 §5.2.1.4): the caller wants an answer rendered now, as
    // after a write of its own that another node took (docs/api.md, "Caching"); the fresh render
    // is kept for the others.
    const entry = noCache(request.headers['cache-control']) ? undefined : entries.get(key);
    // A reader of every status of some type sees pending drafts (markers, perspective=drafts):
    // draft writes date its entries too; a reader of published documents only, never.
    const version = signatureReadsDrafts(signature) ? svc.changes.versionWithDrafts : svc.changes.version;
    if (entry && entry.version === version && entry.expires > Date.now()) {
      svc.metrics.responseCache('hit');
      if (entry.etag) reply.header('etag', entry.etag);
      const accepted = request.headers['accept-encoding'];
      const codable = accepted !== undefined && compressed(entry);
      if (codable) varyOnEncoding(reply);
      const inm = request.headers['if-none-match'];
      if (entry.etag && inm && etagListHas(inm, entry.etag)) return reply.status(304).send();
      reply.type('application/json; charset=utf-8');
      const coding = codable ? negotiateEncoding(accepted) : undefined;
      if (!coding) return reply.send(entry.body);
      let bytes = entry.encoded[coding];
      if (!bytes) {
        bytes = entry.encoded[coding] = compressBody(entry.body, coding);
        totalBytes += bytes.length;
      }
      return reply.header('content-encoding', coding).send(bytes);
    }
    svc.metrics.responseCache('miss');
    // The version is taken before reading: a write that lands meanwhile makes this render stale at once.
    request[cacheKey] = key;
    request[cacheVersion] = version;
  });

  // After the compression hook (registered on the root, so it runs first): what it sent is kept too.
  app.addHook('onSend', async (request: Marked, reply, payload) => {
    const key = request[cacheKey];
    const version = request[cacheVersion];
    if (key === undefined || version === undefined || reply.statusCode !== 200) return payload;
    const sent = sentBodyOf(request);
    const body = sent ? sent.plain : payload;
    if (typeof body !== 'string' || body.length > opts.maxEntryBytes) return payload;
    drop(key);
    const etag = reply.getHeader('etag');
    const entry: Entry = {
      version,
      expires: Date.now() + opts.ttlMs,
      body,
      etag: typeof etag === 'string' ? etag : undefined,
      encoded: {},
    };
    if (sent) entry.encoded[sent.coding] = sent.encoded;
    // Oldest first out, until the new entry fits both bounds.
    while (entries.size > 0 && (entries.size >= opts.maxEntries || totalBytes + sizeOf(entry) > opts.maxTotalBytes))
      drop(entries.keys().next().value as string);
    entries.set(key, entry);
    totalBytes += sizeOf(entry);
    return payload;
  });
}

/** Whether a request's `Cache-Control` asks for a fresh answer: `no-cache`, or `max-age=0`. */
function noCache(header: string | undefined): boolean {
  return header !== undefined && /(?:^|,)\s*(?:no-cache|max-age\s*=\s*0)\s*(?:,|$)/i.test(header);
}
