import type { InvitedUser, User } from '@vellum/client';
import type { StoredUser } from '../../storage/identity/users-store.js';
import { ROLE_PERMISSIONS, isRole } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';

/**
 * The user as served by `/users` and `/auth/me` (docs/api.md, "Users"): never a hash or secret.
 * Declared once, by the client (docs/architecture.md, "Packages").
 */
export type UserView = User;

/** The answer to an invitation: the user, and the link when no mail could carry it. */
export type InvitedUserView = InvitedUser;

export function displayName(u: { username: string; firstName: string | null; lastName: string | null }): string {
  return [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username;
}

export function toUserView(u: StoredUser): UserView {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    name: displayName(u),
    role: u.role,
    permissions: u.permissions,
    active: u.active,
    mfaEnabled: u.mfaEnabled ?? false,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    lastLogin: u.lastLogin,
  };
}

/** Role defaults plus the user's explicit permissions. */
export function effectivePermissions(role: string, explicit: readonly string[]): Set<string> {
  return new Set([...(isRole(role) ? ROLE_PERMISSIONS[role] : []), ...explicit]);
}

/**
 * A user as a principal: its role (when known), its effective permissions, its name. The session
 * (resolve-principal.ts) or the schedule runner (schedule-actor.ts) adds what it knows besides.
 */
export function userPrincipal(u: {
  id: string;
  role: string;
  permissions: readonly string[];
  username: string;
  firstName: string | null;
  lastName: string | null;
}): Principal {
  return {
    kind: 'user',
    id: u.id,
    role: isRole(u.role) ? u.role : null,
    permissions: effectivePermissions(u.role, u.permissions),
    username: u.username,
    name: displayName(u),
  };
}
