import type { Role } from '../../config/roles.js';
/** The spec's fixed permission set; any `<schema>:<action>` string is valid besides these. */
export const FIXED_PERMISSIONS = [
  'content:read',
  'content:write',
  'content:delete',
  'content:publish',
  'content:*',
  'media:read',
  'media:upload',
  'media:edit',
  'media:delete',
  'users:read',
  'users:write',
  'users:delete',
  'users:invite',
  'settings:read',
  'settings:write',
  'studio:access',
  'tokens:read',
  'tokens:write',
  'tokens:delete',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'webhooks:test',
] as const;

export { ROLES, isRole, type Role } from '../../config/roles.js';

export const CONTENT_ACTIONS = ['read', 'write', 'delete', 'publish'] as const;
export type ContentAction = (typeof CONTENT_ACTIONS)[number];

/** Default capabilities of each role (spec: Roles). Admin is checked by role, not by this list. */
export const ROLE_PERMISSIONS: Record<Role, readonly string[]> = {
  admin: FIXED_PERMISSIONS,
  editor: [
    'content:read',
    'content:write',
    'content:delete',
    'content:publish',
    'media:read',
    'media:upload',
    'media:edit',
    'media:delete',
    'studio:access',
  ],
  author: ['content:read', 'content:write', 'content:publish', 'media:read', 'media:upload', 'studio:access'],
  writer: ['content:read', 'content:write', 'media:read', 'media:upload', 'studio:access'],
  viewer: ['content:read', 'media:read', 'studio:access'],
  api: [],
};

const FIXED = new Set<string>(FIXED_PERMISSIONS);
const RESOURCES_WITH_FIXED_ACTIONS = new Set(FIXED_PERMISSIONS.map((p) => p.split(':')[0]));

/**
 * A permission string is valid when it is one of the fixed set, or `<schema>:<action>` for a
 * registered schema with a content action or `*`. `media:foo` is invalid: that resource's actions
 * are fixed.
 */
export function isValidPermission(p: unknown, schemaNames: ReadonlySet<string>): boolean {
  if (typeof p !== 'string') return false;
  if (FIXED.has(p)) return true;
  const [resource, action, ...rest] = p.split(':');
  if (rest.length > 0 || !resource || !action) return false;
  if (RESOURCES_WITH_FIXED_ACTIONS.has(resource)) return false;
  return schemaNames.has(resource) && (action === '*' || (CONTENT_ACTIONS as readonly string[]).includes(action));
}
