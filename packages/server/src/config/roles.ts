/**
 * The spec's built-in roles (the spec's Roles; docs/api.md, "Users"). They live in config/ because configuration
 * names them too (`security.oauth.defaultRole`) and is checked at start-up, before any domain code
 * runs; domain/access/permissions.ts gives each its permissions.
 */
export const ROLES = ['admin', 'editor', 'author', 'writer', 'viewer', 'api'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
