import { isRole, ROLES } from './roles.js';
import type { ConfigReader } from './reader.js';
import type { IdpConfig } from './types.js';

const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/;

/**
 * `security.oauth {issuer, clientId, clientSecret, redirectUri, autoCreateUsers?, defaultRole?}`
 * (docs/api.md, "Identity provider"). Absent: no identity provider. The issuer is `https://`, or
 * `http://` on a loopback host for development and tests (OpenID Connect Discovery 1.0 §3 asks
 * for https; a loopback address never leaves the machine).
 */
export function oauthSection(r: ConfigReader, raw: unknown): IdpConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  const o = r.object('security.oauth', raw, [
    'issuer',
    'clientId',
    'clientSecret',
    'redirectUri',
    'autoCreateUsers',
    'defaultRole',
    'name',
  ]);
  const issuer = r.string('security.oauth.issuer', o.issuer, { minLength: 1 });
  const clientId = r.string('security.oauth.clientId', o.clientId, { minLength: 1 });
  const clientSecret = r.string('security.oauth.clientSecret', o.clientSecret, { minLength: 1 });
  const redirectUri = r.string('security.oauth.redirectUri', o.redirectUri, { minLength: 1 });
  const name = r.string('security.oauth.name', o.name, { minLength: 1 });
  const autoCreateUsers = r.bool('security.oauth.autoCreateUsers', o.autoCreateUsers, false);
  const defaultRole = r.string('security.oauth.defaultRole', o.defaultRole, { def: 'viewer', minLength: 1 }) as string;
  if (!isRole(defaultRole)) r.problem('security.oauth.defaultRole', `"${defaultRole}" is not a role (${ROLES.join(', ')})`);
  if (issuer === undefined) r.problem('security.oauth.issuer', 'required');
  else checkIssuer(r, issuer);
  if (clientId === undefined) r.problem('security.oauth.clientId', 'required');
  if (redirectUri === undefined) r.problem('security.oauth.redirectUri', 'required');
  else if (!webUrl(redirectUri)) r.problem('security.oauth.redirectUri', `"${redirectUri}" is not an http(s) URL`);
  return {
    issuer: issuer ?? '',
    clientId: clientId ?? '',
    clientSecret,
    redirectUri: redirectUri ?? '',
    name: name ?? hostOf(issuer),
    autoCreateUsers,
    defaultRole,
  };
}

function checkIssuer(r: ConfigReader, issuer: string): void {
  const url = webUrl(issuer);
  if (!url || url.search || url.hash || url.username || url.password)
    r.problem('security.oauth.issuer', `"${issuer}" is not an issuer URL (https://host[/path])`);
  else if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
    r.problem('security.oauth.issuer', `"${issuer}" must be https:// (http:// only on 127.0.0.0/8, [::1] or localhost)`);
}

function webUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function hostOf(issuer: string | undefined): string {
  return (issuer && webUrl(issuer)?.hostname) || 'Identity provider';
}
