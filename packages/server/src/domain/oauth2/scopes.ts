import { isOAuthScope, type OAuthScope } from '../../config/oauth-scopes.js';
import { errors } from '../../errors.js';
import { CONTENT_ACTIONS, FIXED_PERMISSIONS, ROLE_PERMISSIONS, isRole } from '../access/permissions.js';

/** What each scope grants (the spec's "OAuth 2.0 scopes" table). */
const GRANTS: Record<OAuthScope, readonly string[]> = {
  openid: [],
  profile: [],
  offline_access: [],
  'content:read': ['content:read'],
  'content:write': ['content:read', 'content:write'],
  'content:delete': ['content:delete'],
  // Publishing alone: the write it goes with comes from `content:write` (docs/oauth2.md, "Scopes").
  'content:publish': ['content:publish'],
  'media:read': ['media:read'],
  'media:write': ['media:read', 'media:upload', 'media:edit'],
};

/**
 * A `scope` parameter (RFC 6749 §3.3: space-delimited, order irrelevant) → the scopes, each one
 * the client may ask for; absent or empty → every scope the client has. Anything else is
 * `invalid_scope`.
 */
export function parseScope(raw: string | undefined, allowed: readonly OAuthScope[]): OAuthScope[] {
  if (raw === undefined || raw.trim() === '') return [...allowed];
  const asked = [...new Set(raw.split(' ').filter(Boolean))];
  const bad = asked.filter((s) => !isOAuthScope(s) || !allowed.includes(s));
  if (bad.length > 0) throw errors.oauth('invalid_scope', `Scope not allowed for this client: ${bad.join(' ')}`);
  return asked as OAuthScope[];
}

/** The approver's narrowing: a subset of what was asked, else 400. */
export function narrowScopes(asked: readonly OAuthScope[], chosen: readonly string[] | undefined): OAuthScope[] {
  if (chosen === undefined) return [...asked];
  const bad = chosen.filter((s) => !(asked as readonly string[]).includes(s));
  if (bad.length > 0)
    throw errors.invalidInput(`Scopes can only be narrowed: ${bad.join(' ')} was not asked for`, [
      { field: 'scopes', message: 'not asked for' },
    ]);
  return [...new Set(chosen)] as OAuthScope[];
}

/** `users`, `media`, `content`, …: resources whose permissions are fixed strings, not schema names. */
const FIXED_RESOURCES = new Set(FIXED_PERMISSIONS.map((p) => p.split(':')[0]));

export const formatScope = (scopes: readonly string[]) => scopes.join(' ');
export const splitScope = (scope: string) => scope.split(' ').filter(Boolean) as OAuthScope[];

/**
 * The rights of an OAuth access token: what its scopes grant, intersected with what the user may
 * do (docs/oauth2.md, "Scopes"). A user's schema permission (`post:write`) counts for the content
 * scope of its action; the admin role counts as holding every permission it lists, but the token
 * never carries the role itself, so admin-only routes stay closed to it.
 */
export function scopedPermissions(scopes: readonly OAuthScope[], role: string, explicit: readonly string[]): Set<string> {
  const granted = new Set(scopes.flatMap((s) => GRANTS[s]));
  const user = new Set([...(isRole(role) ? ROLE_PERMISSIONS[role] : []), ...explicit]);
  const out = new Set<string>();
  for (const p of granted) {
    const action = p.startsWith('content:') ? p.slice('content:'.length) : undefined;
    if (user.has(p) || (action !== undefined && user.has('content:*'))) out.add(p);
  }
  for (const p of user) {
    const [resource, action] = p.split(':');
    if (FIXED_RESOURCES.has(resource) || !action) continue;
    const actions = action === '*' ? CONTENT_ACTIONS : (CONTENT_ACTIONS as readonly string[]).includes(action) ? [action] : [];
    for (const a of actions) if (granted.has(`content:${a}`)) out.add(`${resource}:${a}`);
  }
  return out;
}

/**
 * The scopes a token actually carries for this user (RFC 6749 §3.3: the answer names the scope
 * granted when it differs from the one asked for): each approved scope that gives the user at
 * least one right, as `scopedPermissions` caps rights per permission; a scope that grants nothing
 * by itself (`openid`, `profile`, `offline_access`) is kept. A writer's `media:write` stays (it
 * uploads), their `content:delete` goes. Dropping a scope that gives nothing leaves the rights as
 * they were, since a token's rights are the union of each scope's (docs/oauth2.md, "Scopes").
 */
export function grantedScopes(approved: readonly OAuthScope[], role: string, explicit: readonly string[]): OAuthScope[] {
  return approved.filter((s) => GRANTS[s].length === 0 || scopedPermissions([s], role, explicit).size > 0);
}
