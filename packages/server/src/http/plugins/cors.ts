import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { VellumConfig } from '../../config/types.js';
import { CSRF_HEADER } from '../cookies.js';

/** What the API reads from a request and what a browser script may read from an answer. */
const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'if-match',
  'if-none-match',
  'if-range',
  'range',
  'x-request-id',
  'last-event-id',
  // A read that must see the caller's own writes skips the response cache (docs/api.md, "Caching").
  'cache-control',
  CSRF_HEADER,
];
const EXPOSED_HEADERS = ['etag', 'x-request-id', 'location', 'retry-after', 'content-range'];

/**
 * CORS (docs/api.md, "CORS"): the origins of `server.cors` plus the studio's own origin (that of
 * `server.publicUrl`). An origin that is not allowed gets no CORS header at all, and its preflight
 * is an ordinary 404; none is registered when no origin is allowed.
 */
export function registerCors(app: FastifyInstance, server: VellumConfig['server']): void {
  const { origins, credentials } = server.cors;
  const allowed = new Set(origins === true ? [] : origins);
  const studio = studioOrigin(server.publicUrl);
  if (studio) allowed.add(studio);
  if (origins !== true && allowed.size === 0) return;
  const allows = (origin: string | undefined) => origin !== undefined && (origins === true || allowed.has(origin));
  app.register(cors, {
    origin: (origin, done) => done(null, allows(origin) ? (origin as string) : false),
    credentials,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    // An OPTIONS without the preflight headers is not refused in plain text: it is just not CORS.
    strictPreflight: false,
  });
}

function studioOrigin(publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  try {
    return new URL(publicUrl).origin;
  } catch {
    return undefined;
  }
}
