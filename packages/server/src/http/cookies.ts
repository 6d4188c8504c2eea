import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VellumConfig } from '../config/types.js';

export const ACCESS_COOKIE = 'vellum_access';
export const REFRESH_COOKIE = 'vellum_refresh';
export const CSRF_COOKIE = 'vellum_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Reads one cookie from the request's Cookie header (RFC 6265 §5.4 pairs). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return undefined;
}

type CookieConfig = NonNullable<VellumConfig['security']['cookie']>;

function serialize(name: string, value: string, maxAgeS: number, path: string, httpOnly: boolean, c: CookieConfig): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${path}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeS))}`,
    `SameSite=${c.sameSite}`,
  ];
  if (httpOnly) parts.push('HttpOnly');
  if (c.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Cookie sessions (with `security.cookie`): the access and refresh tokens go into HttpOnly
 * cookies, and a CSRF token into a cookie the page can read and must echo in `x-csrf-token` on
 * every write made with the cookie (double submit).
 */
export function setSessionCookies(
  reply: FastifyReply,
  config: VellumConfig,
  tokens: { token: string; refreshToken: string },
  basePath: string,
): void {
  const c = config.security.cookie;
  if (!c) return;
  const refreshAge = c.maxAge ?? config.security.refreshTokenTtlMs / 1000;
  reply.header('set-cookie', [
    serialize(ACCESS_COOKIE, tokens.token, config.security.accessTokenTtlMs / 1000, basePath, true, c),
    serialize(REFRESH_COOKIE, tokens.refreshToken, refreshAge, `${basePath}/auth`, true, c),
    serialize(CSRF_COOKIE, randomBytes(24).toString('base64url'), refreshAge, '/', false, c),
  ]);
}

export function clearSessionCookies(reply: FastifyReply, config: VellumConfig, basePath: string): void {
  const c = config.security.cookie;
  if (!c) return;
  reply.header('set-cookie', [
    serialize(ACCESS_COOKIE, '', 0, basePath, true, c),
    serialize(REFRESH_COOKIE, '', 0, `${basePath}/auth`, true, c),
    serialize(CSRF_COOKIE, '', 0, '/', false, c),
  ]);
}

/** True when the request echoes the CSRF cookie in the header (compared in constant time). */
export function csrfMatches(request: FastifyRequest): boolean {
  const cookie = readCookie(request, CSRF_COOKIE);
  const header = request.headers[CSRF_HEADER];
  if (!cookie || typeof header !== 'string' || cookie.length !== header.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(header));
}

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
