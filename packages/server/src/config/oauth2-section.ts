import { parseDuration } from './duration.js';
import { OAUTH_GRANTS, OAUTH_SCOPES, CLI_CLIENT_ID, type OAuthGrant, type OAuthScope } from './oauth-scopes.js';
import type { ConfigReader } from './reader.js';
import type { OAuth2Config, OAuthClientConfig } from './types.js';

const CLIENT_ID = /^[A-Za-z0-9._~-]{1,64}$/;
const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/;
/** RFC 8252 §7.1: a native app's private-use scheme is a reversed domain name (`com.example.app:`). */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * `oauth2 {enabled, issuer?, accessTokenTtl?, refreshTokenTtl?, clients?}` (docs/oauth2.md). Absent or
 * not enabled: the authorization server is off and its endpoints answer 501. The issuer is the
 * base of every URL the server hands out (`<issuer>/api/auth/token`, `<issuer>/studio/auth/device`).
 */
export function oauth2Section(r: ConfigReader, raw: unknown, fallbackIssuer: string): OAuth2Config {
  const o = r.object('oauth2', raw, ['enabled', 'issuer', 'accessTokenTtl', 'refreshTokenTtl', 'clients']);
  const enabled = r.bool('oauth2.enabled', o.enabled, false);
  const issuer = (r.string('oauth2.issuer', o.issuer, { minLength: 1 }) ?? fallbackIssuer).replace(/\/+$/, '');
  if (!webUrl(issuer)) r.problem('oauth2.issuer', `"${issuer}" is not an http(s) URL`);
  return {
    enabled,
    issuer,
    accessTokenTtlMs: duration(r, 'oauth2.accessTokenTtl', o.accessTokenTtl, 15 * 60_000),
    refreshTokenTtlMs: duration(r, 'oauth2.refreshTokenTtl', o.refreshTokenTtl, 30 * 86_400_000),
    clients: clientList(r, o.clients),
  };
}

function duration(r: ConfigReader, path: string, raw: unknown, def: number): number {
  if (raw === undefined || raw === null) return def;
  const ms = typeof raw === 'string' ? parseDuration(raw) : undefined;
  if (ms === undefined || ms <= 0) {
    r.problem(path, 'expected a duration such as "15m" or "30d"');
    return def;
  }
  return ms;
}

function clientList(r: ConfigReader, raw: unknown): OAuthClientConfig[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    r.problem('oauth2.clients', 'expected a list of clients');
    return [];
  }
  const seen = new Set<string>();
  return raw.map((item, i) => {
    const client = clientEntry(r, `oauth2.clients[${i}]`, item);
    if (client.clientId === CLI_CLIENT_ID) r.problem(`oauth2.clients[${i}].clientId`, `"${CLI_CLIENT_ID}" is the built-in client`);
    else if (seen.has(client.clientId)) r.problem(`oauth2.clients[${i}].clientId`, `"${client.clientId}" is listed twice`);
    seen.add(client.clientId);
    return client;
  });
}

/** `{clientId, name?, redirectUris, clientSecret?, grants?, scopes?}`: no secret means a public client (PKCE alone). */
function clientEntry(r: ConfigReader, path: string, raw: unknown): OAuthClientConfig {
  const o = r.object(path, raw, ['clientId', 'name', 'redirectUris', 'clientSecret', 'grants', 'scopes']);
  const clientId = r.string(`${path}.clientId`, o.clientId) ?? '';
  if (!CLIENT_ID.test(clientId)) r.problem(`${path}.clientId`, 'expected 1–64 characters of A–Z a–z 0–9 . _ ~ -');
  const clientSecret = r.string(`${path}.clientSecret`, o.clientSecret, { minLength: 32 });
  const grants = list<OAuthGrant>(r, `${path}.grants`, o.grants, OAUTH_GRANTS, ['authorization_code', 'refresh_token'], normaliseGrant);
  const redirectUris = redirectList(r, `${path}.redirectUris`, o.redirectUris, grants.includes('authorization_code'));
  return {
    clientId,
    name: r.string(`${path}.name`, o.name, { minLength: 1 }) ?? clientId,
    redirectUris,
    clientSecret,
    grants,
    scopes: list<OAuthScope>(r, `${path}.scopes`, o.scopes, OAUTH_SCOPES, [...OAUTH_SCOPES], (s) => s),
  };
}

const normaliseGrant = (g: string) => (g === 'urn:ietf:params:oauth:grant-type:device_code' ? 'device_code' : g);

function list<T extends string>(
  r: ConfigReader,
  path: string,
  raw: unknown,
  allowed: readonly T[],
  def: T[],
  normalise: (value: string) => string,
): T[] {
  if (raw === undefined || raw === null) return def;
  if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string')) {
    r.problem(path, `expected a list of: ${allowed.join(', ')}`);
    return def;
  }
  const values = raw.map(normalise);
  for (const v of values) if (!(allowed as readonly string[]).includes(v)) r.problem(path, `"${v}" is not one of: ${allowed.join(', ')}`);
  return [...new Set(values.filter((v): v is T => (allowed as readonly string[]).includes(v)))];
}

/**
 * Redirect URIs are compared exactly (RFC 6749 §3.1.2.3 with RFC 9700 §4.1.3's exact match), so
 * each must be an absolute URI without a fragment (RFC 6749 §3.1.2): `https://`, `http://` on a
 * loopback host (RFC 8252 §7.3), or a native app's private-use scheme (RFC 8252 §7.1).
 */
function redirectList(r: ConfigReader, path: string, raw: unknown, required: boolean): string[] {
  if (raw === undefined || raw === null) {
    if (required) r.problem(path, 'required for the authorization_code grant');
    return [];
  }
  if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string')) {
    r.problem(path, 'expected a list of URLs');
    return [];
  }
  for (const uri of raw) {
    let url: URL | undefined;
    try {
      url = new URL(uri);
    } catch {
      url = undefined;
    }
    const ok =
      url !== undefined &&
      !uri.includes('#') &&
      (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) || PRIVATE_USE_SCHEME.test(url.protocol));
    if (!ok) r.problem(path, `"${uri}" must be https://, http:// on a loopback host, or a reversed-domain scheme, without a fragment`);
  }
  if (required && raw.length === 0) r.problem(path, 'required for the authorization_code grant');
  return raw as string[];
}

function webUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}
