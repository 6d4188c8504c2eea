/**
 * The scopes of the authorization server (the spec's "OAuth 2.0 scopes" table). Their names live
 * in config/ because `oauth2.clients[].scopes` names them and is checked at start-up;
 * domain/oauth2/scopes.ts says what each one grants.
 */
export const OAUTH_SCOPES = [
  'openid',
  'profile',
  'offline_access',
  'content:read',
  'content:write',
  'content:delete',
  'content:publish',
  'media:read',
  'media:write',
] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** The grant types a client may be allowed (`device_code` is RFC 8628's `urn:ietf:params:oauth:grant-type:device_code`). */
export const OAUTH_GRANTS = ['authorization_code', 'refresh_token', 'device_code'] as const;
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];

/** The built-in public client of the `vellum` command line: no registration, every scope (the spec's "OAuth 2.0 scopes"). */
export const CLI_CLIENT_ID = 'service-cli';
